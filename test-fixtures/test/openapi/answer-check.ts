import type { SchemaChecker } from '@colapi/openapi-check';
import type { TestResponse } from '@colapi/test-fixtures/testing';
import { resolve } from './schema-values.js';

type Header = { required?: boolean; schema?: object; $ref?: string };
export type Response = {
  $ref?: string;
  headers?: Record<string, Header>;
  content?: Record<string, { schema: object }>;
};
export type Responses = Record<string, Response>;

/**
 * Statuses an operation must declare by their own code: the answers of conditional requests, which a
 * `4XX` range would otherwise cover without saying the operation honours the header behind them.
 */
const EXACT_ONLY: ReadonlySet<number> = new Set([304, 412, 428]);

/** Headers an answer may carry only where the document declares them for its status. */
const DECLARED_ONLY = ['ETag', 'Resource-ETag'] as const;

/** The response object of the document that covers a status: exact, then its range (`4XX`), then `default`. */
export function documentedResponse(responses: Responses, status: number): [string, Response] | undefined {
  const keys = EXACT_ONLY.has(status) ? [String(status)] : [String(status), `${String(status)[0]}XX`, 'default'];
  for (const key of keys) {
    if (responses[key]) return [key, responses[key]];
  }
  return undefined;
}

/** What the headers of an answer say that the document does not: missing, undeclared or misshapen ones. */
export function headerProblems(
  response: Response,
  res: Pick<TestResponse, 'status' | 'headers'>,
  check: SchemaChecker,
  doc: object,
): string[] {
  const declared = new Map(
    Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), resolve(h, doc) as Header]),
  );
  const out: string[] = [];
  // A JSONP script may wrap an error, which carries no tag (documented in the header's description).
  const script = (res.headers.get('content-type') ?? '').includes('javascript');
  for (const [name, header] of declared) {
    const value = res.headers.get(name);
    if (value === null) {
      if (header.required && !script) out.push(`${res.status} has no ${name}, documented as required`);
      continue;
    }
    const wrong = header.schema ? check(header.schema, value) : undefined;
    if (wrong) out.push(`${res.status} ${name} ${value} does not fit its schema: ${wrong}`);
  }
  for (const name of DECLARED_ONLY) {
    if (res.headers.has(name) && !declared.has(name.toLowerCase()))
      out.push(`${res.status} carries ${name}, not documented for it`);
  }
  return out;
}

/**
 * What in an answer the document does not say: its status, its headers, its content type, or its body.
 * `doc` resolves the references of responses and headers (`#/components/responses/…`).
 */
export function answerProblems(
  responses: Responses,
  res: Pick<TestResponse, 'status' | 'headers' | 'text'>,
  check: SchemaChecker,
  doc: object,
): string[] {
  const documented = documentedResponse(responses, res.status);
  if (!documented) return [`status ${res.status} is not documented (${Object.keys(responses).join(', ')})`];
  const key = documented[0];
  const response = resolve(documented[1], doc) as Response;
  const headers = headerProblems(response, res, check, doc);
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!response.content)
    return res.text === '' ? headers : [...headers, `${res.status} has a ${type} body, documented without content`];
  if (res.text === '')
    return [...headers, `${res.status} has no body, documented with ${Object.keys(response.content).join(', ')}`];
  const media = response.content[type];
  if (!media)
    return [
      ...headers,
      `${res.status} answers ${type}, documented under ${key} as ${Object.keys(response.content).join(', ')}`,
    ];
  let value: unknown = res.text;
  if (/json/.test(type)) {
    try {
      value = JSON.parse(res.text);
    } catch {
      return [...headers, `${res.status} ${type} is not JSON`];
    }
  }
  const wrong = check(media.schema, value);
  return wrong ? [...headers, `${res.status} ${type} body does not fit ${key}: ${wrong}`] : headers;
}

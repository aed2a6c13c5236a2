import type { SchemaChecker } from '@colapi/openapi-check';
import type { TestResponse } from '@colapi/test-fixtures/testing';

type Responses = Record<string, { content?: Record<string, { schema: object }> }>;

/** The response object of the document that covers a status: exact, then its range (`4XX`), then `default`. */
export function documentedResponse(responses: Responses, status: number): [string, Responses[string]] | undefined {
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    if (responses[key]) return [key, responses[key]];
  }
  return undefined;
}

/** What in an answer the document does not say: its status, its content type, or its body. */
export function answerProblems(responses: Responses, res: TestResponse, check: SchemaChecker): string[] {
  const documented = documentedResponse(responses, res.status);
  if (!documented) return [`status ${res.status} is not documented (${Object.keys(responses).join(', ')})`];
  const [key, response] = documented;
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!response.content) return res.text === '' ? [] : [`${res.status} has a ${type} body, documented without content`];
  if (res.text === '')
    return [`${res.status} has no body, documented with ${Object.keys(response.content).join(', ')}`];
  const media = response.content[type];
  if (!media)
    return [`${res.status} answers ${type}, documented under ${key} as ${Object.keys(response.content).join(', ')}`];
  let value: unknown = res.text;
  if (/json/.test(type)) {
    try {
      value = JSON.parse(res.text);
    } catch {
      return [`${res.status} ${type} is not JSON`];
    }
  }
  const wrong = check(media.schema, value);
  return wrong ? [`${res.status} ${type} body does not fit ${key}: ${wrong}`] : [];
}

import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { createRequire } from 'node:module';

/**
 * Holds every JSON:API response the tests see to the JSON:API 1.0 response schema of jsonapi.org, as the
 * npm package jsonapi-validator ships it (lib/schema.json, a draft-06 schema): the schema is a dependency,
 * never a copy in this repository. It is an earlier revision of json-api/json-api's _schemas/1.0/schema.json
 * (see docs/decisions.md).
 */

export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';

const require = createRequire(import.meta.url);
const SCHEMA_KEY = 'jsonapi-1.0-response';

interface Checkers {
  readonly document: ValidateFunction;
  readonly jsonapiObject: ValidateFunction;
}

let checkers: Checkers | undefined;

/** Compiled once per process, on the first JSON:API body. */
function compiled(): Checkers {
  if (checkers) return checkers;
  // Not strict: the schema leaves `type: "object"` out beside `properties` and `required` (Ajv's strictTypes).
  const ajv = new Ajv.default({ allErrors: true, strict: false });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  // Formats as jsonapi-validator's own Validator checks them (Ajv's "fast" formats): a link's `page[size]`
  // keeps its brackets (docs/decisions.md, Links), which the "full" uri-reference format refuses.
  addFormats.default(ajv, { mode: 'fast' });
  ajv.addSchema(require('jsonapi-validator/lib/schema.json') as object, SCHEMA_KEY);
  checkers = {
    document: ajv.getSchema(SCHEMA_KEY)!,
    jsonapiObject: ajv.getSchema(`${SCHEMA_KEY}#/definitions/jsonapi`)!,
  };
  return checkers;
}

/** What a check needs to know of one exchange. */
export interface ExchangeToCheck {
  readonly method: string;
  /** The path and query as sent. */
  readonly path: string;
  readonly status: number;
  readonly contentType: string | null | undefined;
  readonly text: string;
}

/** True when a Content-Type names the JSON:API media type (parameters aside). */
export function isJsonApiContentType(contentType: string | null | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === JSONAPI_MEDIA_TYPE;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value a JSON pointer of Ajv's (instancePath) names in a document. */
function valueAt(document: unknown, pointer: string): unknown {
  let value = document;
  for (const step of pointer.split('/').slice(1)) {
    const key = step.replaceAll('~1', '/').replaceAll('~0', '~');
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

const excerpt = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;

/** The schema's complaints, one line per place in the document, with the value found there. */
function describeErrors(document: unknown, errors: readonly ErrorObject[] | null | undefined): string {
  const byPlace = new Map<string, Set<string>>();
  for (const e of errors ?? []) {
    const params =
      e.keyword === 'additionalProperties' || e.keyword === 'required' || e.keyword === 'format'
        ? ` ${JSON.stringify(e.params)}`
        : '';
    const place = e.instancePath;
    if (!byPlace.has(place)) byPlace.set(place, new Set());
    byPlace.get(place)!.add(`${e.message ?? e.keyword}${params} [${e.schemaPath}]`);
  }
  const lines = [...byPlace].map(([place, complaints]) => {
    if (!place) return `at the top level: ${[...complaints].join('; ')}`;
    return `at ${place} = ${excerpt(JSON.stringify(valueAt(document, place)) ?? 'undefined', 300)}: ${[...complaints].join('; ')}`;
  });
  return lines.slice(0, 12).join('\n    ') + (lines.length > 12 ? `\n    … ${lines.length - 12} more places` : '');
}

const MAX_BODY = 3000;

const EVALUATION_PATH = /^\/api\/eval\/[^/?#]+(?:[?#]|$)/;

/**
 * The members the project's specification (shared/spec/collection-api.md) mandates although the schema
 * refuses them, taken out of a copy of the document; each is checked against what the specification says
 * of it instead. Three (docs/decisions.md):
 * - a top-level `links.prev` or `links.next` that is null beside a list of resources: "Collection document
 *   (Format A)" makes them "string or null, null when no such page exists", as JSON:API 1.0 itself does (a
 *   link that is not available is omitted or null); the revision of the schema in jsonapi-validator refuses
 *   the null;
 * - `jsonapi` inside the resource object of a create answer (POST, 201): "Resource object (Format A)" says
 *   it is present in create responses and has `version`;
 * - the `data` of a function evaluation answer (GET /api/eval/<collection>, 200): "Function evaluation
 *   (Format A)" makes it the list of results, values rather than resource objects. Its contents are taken
 *   out (the rest of the document is checked with `data: []`).
 */
function withoutMandatedMembers(exchange: ExchangeToCheck, parsed: unknown): { document: unknown; problems: string[] } {
  const problems: string[] = [];
  if (!isObject(parsed)) return { document: parsed, problems };
  let document = parsed;
  if (
    Array.isArray(document.data) &&
    isObject(document.links) &&
    (document.links.prev === null || document.links.next === null)
  ) {
    const links = { ...document.links };
    if (links.prev === null) delete links.prev;
    if (links.next === null) delete links.next;
    document = { ...document, links };
  }
  const method = exchange.method.toUpperCase();
  if (method === 'GET' && exchange.status === 200 && EVALUATION_PATH.test(exchange.path) && 'data' in document) {
    if (!Array.isArray(document.data))
      problems.push(`/data of a function evaluation is ${JSON.stringify(document.data)}, not a list of results`);
    else if (document.data.some((v) => typeof v === 'object' && v !== null))
      problems.push('/data of a function evaluation holds an object or a list, not only result values');
    return { document: { ...document, data: [] }, problems };
  }
  if (method !== 'POST' || exchange.status !== 201 || !isObject(document.data) || !('jsonapi' in document.data))
    return { document, problems };
  const data = document.data;
  const { jsonapiObject } = compiled();
  if (!jsonapiObject(data.jsonapi))
    problems.push(`/data/jsonapi: ${describeErrors(data.jsonapi, jsonapiObject.errors)}`);
  else if (typeof (data.jsonapi as { version?: unknown }).version !== 'string')
    problems.push('/data/jsonapi has no version');
  const { jsonapi: _mandated, ...rest } = data;
  return { document: { ...document, data: rest }, problems };
}

/**
 * What is wrong with one answer as a JSON:API document, or undefined when nothing is (or when it is not a
 * JSON:API answer: another content type, no body, a HEAD).
 */
export function jsonApiViolation(exchange: ExchangeToCheck): string | undefined {
  if (!isJsonApiContentType(exchange.contentType)) return undefined;
  if (exchange.method.toUpperCase() === 'HEAD' || exchange.text === '') return undefined;
  const where = `${exchange.method} ${exchange.path.length > 400 ? `${exchange.path.slice(0, 400)}…` : exchange.path} answered ${exchange.status} (${exchange.contentType})`;
  const body = excerpt(exchange.text, MAX_BODY);
  let parsed: unknown;
  try {
    parsed = JSON.parse(exchange.text);
  } catch {
    return `${where} with a body that is not JSON:\n  body: ${body}`;
  }
  const atomic = atomicResults(parsed);
  if (atomic) {
    if (!atomic.problems.length) return undefined;
    return `${where}, an atomic:results document JSON:API 1.1 refuses:\n    ${atomic.problems.join('\n    ')}\n  body: ${body}`;
  }
  const { document, problems } = withoutMandatedMembers(exchange, parsed1_1(parsed));
  const { document: check } = compiled();
  if (!check(document)) problems.push(describeErrors(document, check.errors));
  if (!problems.length) return undefined;
  return `${where}, a body the JSON:API 1.0 schema refuses:\n    ${problems.join('\n    ')}\n  body: ${body}`;
}

const ATOMIC_EXT = 'https://jsonapi.org/ext/atomic';

/**
 * The `jsonapi` object of a JSON:API 1.1 document checked (version "1.1", `ext` and `profile` lists of
 * URIs) and replaced by its 1.0 form, which the 1.0 schema then checks with the rest.
 */
function parsed1_1(parsed: unknown): unknown {
  if (!isObject(parsed) || !isObject(parsed.jsonapi) || parsed.jsonapi.version !== '1.1') return parsed;
  const { ext, profile, ...rest } = parsed.jsonapi;
  for (const list of [ext, profile]) {
    if (
      list !== undefined &&
      (!Array.isArray(list) || list.some((u) => typeof u !== 'string' || !/^https?:\/\//.test(u)))
    )
      return { ...parsed, jsonapi: { ...rest, ext, profile } };
  }
  return { ...parsed, jsonapi: rest };
}

/**
 * A document of the Atomic Operations extension (`atomic:results`): its `jsonapi` names version 1.1 and the
 * extension, it has no other top-level member than `jsonapi`, `meta`, `links` and the results, and each
 * result is an object of `data` and `meta` at most, whose `data` the 1.0 schema holds as a document's.
 * Undefined for any other document.
 */
function atomicResults(parsed: unknown): { problems: string[] } | undefined {
  if (!isObject(parsed) || !('atomic:results' in parsed)) return undefined;
  const problems: string[] = [];
  const jsonapi = parsed.jsonapi as { version?: unknown; ext?: unknown } | undefined;
  if (jsonapi?.version !== '1.1' || !Array.isArray(jsonapi.ext) || !jsonapi.ext.includes(ATOMIC_EXT))
    problems.push(`/jsonapi must be {"version": "1.1", "ext": ["${ATOMIC_EXT}"]}`);
  const extra = Object.keys(parsed).filter((k) => !['jsonapi', 'meta', 'links', 'atomic:results'].includes(k));
  if (extra.length) problems.push(`top-level members beside atomic:results: ${extra.join(', ')}`);
  const results = parsed['atomic:results'];
  if (!Array.isArray(results)) return { problems: [...problems, '/atomic:results is not a list'] };
  const { document: check } = compiled();
  results.forEach((result, i) => {
    if (!isObject(result)) {
      problems.push(`/atomic:results/${i} is not an object`);
      return;
    }
    const members = Object.keys(result).filter((k) => k !== 'data' && k !== 'meta');
    if (members.length) problems.push(`/atomic:results/${i} has members ${members.join(', ')}`);
    if ('data' in result && !check({ data: result.data }))
      problems.push(`/atomic:results/${i}: ${describeErrors({ data: result.data }, check.errors)}`);
  });
  return { problems };
}

/** An answer that is no valid JSON:API document. */
export class JsonApiSchemaViolation extends Error {
  override readonly name = 'JsonApiSchemaViolation';
}

/** Throws a JsonApiSchemaViolation when the answer is a JSON:API document the schema refuses. */
export function assertJsonApiDocument(exchange: ExchangeToCheck): void {
  const violation = jsonApiViolation(exchange);
  if (violation) throw new JsonApiSchemaViolation(violation);
}

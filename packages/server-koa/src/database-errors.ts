import { ApiError, type ErrorCode, type ErrorSource, type Route } from '@colapi/query-ast';
import type { ModelSchema, Registry } from '@colapi/schema';
import type { Database, DatabaseErrorKind, ErrorPlace } from '@colapi/sql-compiler';

const MESSAGES: Record<DatabaseErrorKind, [number, string, string]> = {
  'unique-violation': [409, 'Conflict', 'a resource with the same unique value exists already'],
  'not-null-violation': [400, 'Bad Request', 'a required field is missing or null'],
  'foreign-key-missing': [404, 'Not Found', 'a related resource does not exist'],
  'foreign-key-referenced': [409, 'Conflict', 'the resource is still referenced by other resources'],
  'check-violation': [400, 'Bad Request', 'a value breaks a constraint of the database'],
  'invalid-value': [400, 'Bad Request', 'a value is not valid for its field'],
  'out-of-range': [400, 'Bad Request', 'a number is out of the range its field holds'],
  timeout: [503, 'Service Unavailable', 'the query took too long and was cancelled'],
  serialization: [503, 'Service Unavailable', 'the request conflicted with a concurrent one; retry it'],
  unavailable: [503, 'Service Unavailable', 'the database cannot be reached'],
};

/** Integrity conflicts carry a code, so that a wire format may answer them its own way (Format B: 400). */
const CODES: Partial<Record<DatabaseErrorKind, ErrorCode>> = {
  'unique-violation': 'unique-violation',
  'foreign-key-referenced': 'still-referenced',
};

/** 503 when no pooled connection came free within knex's `acquireConnectionTimeout`: the server is saturated. */
export const poolBusy = (): ApiError =>
  new ApiError(503, 'Service Unavailable', 'every database connection stayed busy; retry the request in a moment', undefined, { 'retry-after': '1' });

/** Whether an error is knex's timeout waiting for a pooled connection. */
export function isPoolTimeout(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'KnexTimeoutError';
}

/** The fields a database error is about, as the client knows them, with the JSON:API pointer of one field. */
interface FieldsAtFault {
  /** The collection whose rows hold them. */
  readonly owner: string;
  readonly names: readonly string[];
  readonly pointer?: string;
}

/** The client-facing error of a classified database error; never carries SQL or driver text. */
export function databaseError(kind: DatabaseErrorKind, fields?: FieldsAtFault): ApiError {
  const [status, title, generic] = MESSAGES[kind];
  let detail = generic;
  if (fields && kind === 'unique-violation') {
    const names = fields.names.map((n) => `"${n}"`).join(', ');
    detail = `${names} must be unique${fields.names.length > 1 ? ' together' : ''}: another ${fields.owner} has the same value`;
  } else if (fields && kind === 'out-of-range') {
    detail = `"${fields.names[0]}": the number is out of the range the field holds`;
  }
  const source: ErrorSource | undefined = fields?.pointer === undefined ? undefined : { pointer: fields.pointer };
  return new ApiError(status, title, detail, source, undefined, CODES[kind]);
}

/**
 * The client-facing error of a driver error, or undefined when the dialect does not classify it. Names the
 * fields at fault where the database tells their columns: a model of the request's collection first, else
 * the one model of the table the database names.
 */
export async function classifiedError(database: Database, registry: Registry, route: Route, error: unknown): Promise<ApiError | undefined> {
  const kind = database.dialect.classifyError(error);
  if (!kind) return undefined;
  const place = await database.dialect.errorPlace?.(database.knex, error).catch(() => undefined);
  return databaseError(kind, place && fieldsAtFault(registry, route, place));
}

function fieldsAtFault(registry: Registry, route: Route, place: ErrorPlace): FieldsAtFault | undefined {
  const own = registry.collection(route.collection);
  let model: ModelSchema | undefined;
  let owner: string | undefined;
  if (own && (place.table === undefined || own.model.table === place.table)) [model, owner] = [own.model, own.name];
  else if (place.table !== undefined) {
    const models = [...registry.models.values()].filter((m) => m.table === place.table);
    const other = models.length === 1 ? [...registry.collections.values()].find((c) => c.model === models[0]) : undefined;
    if (other) [model, owner] = [other.model, other.name];
  }
  if (!model || !owner || place.columns.length === 0 || !place.columns.every((c) => model.columns.has(c))) return undefined;
  // A pointer only into the request's own resource, and only for a single field.
  const [column] = place.columns;
  if (model !== own?.model || place.columns.length !== 1 || column === undefined) return { owner, names: place.columns };
  const relationship = [...model.relationships.values()].find((r) => r.join.kind === 'belongs-to' && r.join.ownColumn === column);
  const pointer = column === model.key ? '/data/id' : relationship ? `/data/relationships/${relationship.name}` : `/data/attributes/${column}`;
  return { owner, names: place.columns, pointer };
}

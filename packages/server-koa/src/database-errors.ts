import { ApiError, type ErrorCode, type ErrorSource } from '@colapi/query-ast';
import type { Route } from '@colapi/wire-format';
import {
  fieldOfColumn,
  foreignKeyColumns,
  type CollectionSchema,
  type ModelSchema,
  type Registry,
} from '@colapi/schema';
import { driverError, errorKind, type Database, type DatabaseErrorKind, type ErrorPlace } from '@colapi/sql-compiler';

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
  'permission-denied': [403, 'Forbidden', 'the database does not allow this to the role the server connects as'],
  'not-populated': [
    503,
    'Service Unavailable',
    'a materialized view this request reads has not been populated: it is served once REFRESH MATERIALIZED VIEW has filled it',
  ],
};

/** Integrity conflicts carry a code, so that a wire format may answer them its own way (Format B: 400). */
const CODES: Partial<Record<DatabaseErrorKind, ErrorCode>> = {
  'unique-violation': 'unique-violation',
  'foreign-key-referenced': 'still-referenced',
};

/** 503 when no pooled connection came free within knex's `acquireConnectionTimeout`: the server is saturated. */
export const poolBusy = (): ApiError =>
  new ApiError(
    503,
    'Service Unavailable',
    'every database connection stayed busy; retry the request in a moment',
    undefined,
    { 'retry-after': '1' },
  );

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
  /** Whether they are fields of the request's own collection, rather than of rows it changes elsewhere. */
  readonly own?: boolean;
  /** Whether the one field is the collection's key (its id). */
  readonly key?: boolean;
  /** The to-one relationship the one field (a foreign key) is set through, where it is not its name already. */
  readonly relationship?: string;
}

/**
 * The client-facing error of a classified database error; never carries SQL or driver text. `constraint` is
 * the CHECK that failed, named where the fields it covers are known or it covers none the database told.
 */
export function databaseError(kind: DatabaseErrorKind, fields?: FieldsAtFault, constraint?: string): ApiError {
  const [status, title, generic] = MESSAGES[kind];
  let detail = generic;
  const names = fields?.names.map((n) => `"${n}"`).join(', ');
  const check = constraint === undefined ? 'a check' : `the check "${constraint}"`;
  if (fields && kind === 'unique-violation') {
    detail = `${names} must be unique${fields.names.length > 1 ? ' together' : ''}: another ${fields.owner} has the same value`;
  } else if (fields && kind === 'out-of-range') {
    detail = `"${fields.names[0]}": the number is out of the range the field holds`;
  } else if (fields && kind === 'not-null-violation') {
    const field = fields.relationship === undefined ? names : `${names} (the relationship "${fields.relationship}")`;
    detail = fields.key
      ? `${field} is required: ${fields.owner} gives no id of its own, so a create must send one`
      : fields.own
        ? `${field} is required: it cannot be null and has no default`
        : `${field} of ${fields.owner} cannot be null`;
  } else if (fields && kind === 'check-violation') {
    detail =
      fields.names.length > 1
        ? `${names} break ${check} of the database together`
        : `${names} breaks ${check} of the database`;
    if (!fields.own) detail += ` (in ${fields.owner})`;
  } else if (kind === 'check-violation' && constraint !== undefined) {
    detail = `a value breaks ${check} of the database`;
  }
  const source: ErrorSource | undefined = fields?.pointer === undefined ? undefined : { pointer: fields.pointer };
  return new ApiError(status, title, detail, source, undefined, CODES[kind]);
}

/**
 * The client-facing error of a driver error, or undefined when the dialect does not classify it. Names the
 * fields at fault where the database tells their columns: a model of the request's collection first, else
 * the one model of the table the database names.
 */
export async function classifiedError(
  database: Database,
  registry: Registry,
  route: Route,
  error: unknown,
): Promise<ApiError | undefined> {
  const kind = errorKind(database.dialect, error);
  if (!kind) return undefined;
  const table = registry.collection(route.collection)?.model.table;
  const place = await database.dialect.errorPlace?.(database.knex, driverError(error), table).catch(() => undefined);
  const fields = place && fieldsAtFault(registry, route, place);
  // A check over fields the collection hides is not named: its name may tell what the fields hold.
  const constraint = fields || place?.columns.length === 0 ? place?.constraint : undefined;
  return databaseError(kind, fields, constraint);
}

/**
 * The fields at fault, as the collection that owns them shows them: the request's own collection when the
 * database names its table or none, else a collection of the one model of the table the database names. A
 * column the collection hides is never named (nor pointed at): it is shown by its own name when the
 * collection shows the column, else by the name of a belongs-to relationship the collection shows that joins
 * on it; when one column is hidden both ways, the error keeps its generic detail. The database names columns
 * as SQL knows them: a renamed column is named and pointed at by its field's name.
 */
function fieldsAtFault(registry: Registry, route: Route, place: ErrorPlace): FieldsAtFault | undefined {
  if (place.columns.length === 0) return undefined;
  const own = registry.collection(route.collection);
  let collection: CollectionSchema | undefined;
  let names: string[] | undefined;
  let columns: readonly string[] | undefined;
  if (own && (place.table === undefined || own.model.table === place.table)) {
    collection = own;
    columns = modelColumns(own.model, place.columns);
    names = columns && shownNames(own, columns);
  } else if (place.table !== undefined) {
    const models = [...registry.models.values()].filter((m) => m.table === place.table);
    columns = models.length === 1 ? modelColumns(models[0]!, place.columns) : undefined;
    if (columns) {
      for (const c of registry.collections.values()) {
        if (c.model !== models[0]) continue;
        names = shownNames(c, columns);
        if (names) {
          collection = c;
          break;
        }
      }
    }
  }
  if (!collection || !names || !columns) return undefined;
  // A pointer only into the request's own resource, and only for a single field.
  const [column] = columns;
  if (collection !== own || columns.length !== 1 || column === undefined)
    return { owner: collection.name, names, own: collection === own };
  const model = collection.model;
  const relationship = shownForeignKey(collection, column);
  const key = column === model.key;
  const pointer = pointerOf(route, model, column, relationship);
  const through = relationship !== undefined && relationship !== names[0] ? { relationship } : {};
  return { owner: collection.name, names, own: true, key, pointer, ...through };
}

/**
 * Where a field lies in the body of the request: in a resource object, or the whole linkage of a relationship
 * endpoint (`PATCH /articles/1/relationships/author`) for its own relationship.
 */
function pointerOf(route: Route, model: ModelSchema, column: string, relationship: string | undefined) {
  if (route.relationships) return relationship !== undefined && relationship === route.relation ? '/data' : undefined;
  if (column === model.key) return '/data/id';
  if (relationship) return `/data/relationships/${relationship}`;
  return foreignKeyColumns(model).has(column) ? undefined : `/data/attributes/${column}`;
}

/**
 * The model's names of the columns the database names: a renamed column is known to the database by its own
 * name (`sqlColumn`). Undefined when the model lacks one: no collection shows it.
 */
function modelColumns(model: ModelSchema, columns: readonly string[]): string[] | undefined {
  const names = columns.map((c) => fieldOfColumn(model, c));
  return names.every((n) => n !== undefined) ? (names as string[]) : undefined;
}

/** The names under which a collection shows columns, or undefined when it hides one of them. */
function shownNames(collection: CollectionSchema, columns: readonly string[]): string[] | undefined {
  const names: string[] = [];
  for (const column of columns) {
    const name = collection.columns.has(column) ? column : shownForeignKey(collection, column);
    if (name === undefined) return undefined;
    names.push(name);
  }
  return names;
}

/** The belongs-to relationship the collection shows that joins on a column, if any. */
function shownForeignKey(collection: CollectionSchema, column: string): string | undefined {
  for (const r of collection.relationships.values())
    if (r.join.kind === 'belongs-to' && r.join.ownColumn === column) return r.name;
  return undefined;
}

import type { CollectionSchema } from '@colapi/schema';
import { ApiError, parseKey } from '@colapi/query-ast';
import { ApiErrors, type AtomicStep, type DecodeContext, type HttpRequest, type LocalIds } from '@colapi/wire-format';
import { decodeWrite } from '../decode-write.js';
import { LidBook } from './lid-book.js';
import { hrefTarget, refTarget, type Target } from './operation-target.js';

export const ATOMIC_OPERATIONS = 'atomic:operations';
const ROOT = `/${ATOMIC_OPERATIONS}`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (detail: string, pointer: string) => ApiError.badRequest(detail, { pointer });

const OPERATION_MEMBERS = new Set(['op', 'ref', 'href', 'data', 'meta']);
const DOCUMENT_MEMBERS = new Set([ATOMIC_OPERATIONS, 'jsonapi', 'meta', 'links']);

/** An error of one operation, its pointer moved under the operation's place: `/data/x` → `/atomic:operations/3/data/x`. */
export function locate(error: ApiError, pointer: string): ApiError {
  const inner = error.source?.pointer;
  if (inner?.startsWith(ROOT)) return error;
  const source = error.source?.parameter !== undefined ? error.source : { pointer: `${pointer}${inner ?? ''}` };
  return new ApiError(
    error.status,
    error.title,
    error.detail,
    source,
    error.headers as Record<string, string>,
    error.code,
  );
}

/**
 * A string that is a valid key of the collection, standing for a lid in the checks before any SQL: the
 * checks then see a well-formed id, and the real one comes when the operation runs.
 */
function standIn(collection: CollectionSchema): string {
  for (const candidate of ['1', '00000000-0000-0000-0000-000000000000', 'a']) {
    if (parseKey(collection.model, candidate).ok) return candidate;
  }
  return '1';
}

/** The request's body checked as a whole: an object whose operations are a non-empty list within the limit. */
function operationsOf(body: unknown, max: number): unknown[] {
  if (!isObject(body)) throw bad(`the request body must be an object with ${ATOMIC_OPERATIONS}`, '');
  for (const member of ['data', 'included'])
    if (member in body) throw bad(`"${member}" may not appear beside ${ATOMIC_OPERATIONS}`, `/${member}`);
  const unknown = Object.keys(body).find((k) => !DOCUMENT_MEMBERS.has(k));
  if (unknown !== undefined) throw bad(`"${unknown}" is not a member of an atomic operations document`, `/${unknown}`);
  const ops = body[ATOMIC_OPERATIONS];
  if (!Array.isArray(ops)) throw bad(`${ATOMIC_OPERATIONS} must be a list of operations`, ROOT);
  if (ops.length === 0) throw bad(`${ATOMIC_OPERATIONS} holds no operation`, ROOT);
  if (ops.length > max)
    throw new ApiError(
      413,
      'Payload Too Large',
      `at most ${max} operations are accepted in one request, not ${ops.length}`,
      {
        pointer: ROOT,
      },
    );
  return ops;
}

/** Resource identifiers (one, a list or null) with lids: checked against the book, lids replaced by `idOf`. */
function identifiers(
  data: unknown,
  pointer: string,
  book: LidBook | undefined,
  idOf: (type: string, lid: string) => string,
): unknown {
  const one = (d: unknown, p: string): unknown => {
    if (!isObject(d) || d.lid === undefined) return d;
    if (typeof d.lid !== 'string') throw bad('lid must be a string', `${p}/lid`);
    if (d.id !== undefined) throw bad('a resource identifier has both id and lid: give one', `${p}/lid`);
    if (typeof d.type !== 'string') throw bad('a resource identifier needs a type', `${p}/type`);
    book?.use(d.type, d.lid, `${p}/lid`);
    const { lid, ...rest } = d;
    return { ...rest, id: idOf(d.type, lid as string) };
  };
  return Array.isArray(data) ? data.map((d, i) => one(d, `${pointer}/${i}`)) : one(data, pointer);
}

/** A resource object with the lids of its relationships replaced, its own lid left to the caller. */
function resourceWithIds(
  data: Record<string, unknown>,
  pointer: string,
  book: LidBook | undefined,
  idOf: (type: string, lid: string) => string,
): Record<string, unknown> {
  if (!isObject(data.relationships)) return data;
  const relationships: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data.relationships)) {
    relationships[name] =
      isObject(value) && 'data' in value
        ? { ...value, data: identifiers(value.data, `${pointer}/relationships/${name}/data`, book, idOf) }
        : value;
  }
  return { ...data, relationships };
}

/** The request one operation amounts to, for decodeWrite: its method, route and body. */
interface SingleRequest {
  readonly method: 'POST' | 'PATCH' | 'DELETE';
  readonly type: string;
  readonly id?: string;
  readonly relationship?: string;
  readonly data?: unknown;
}

/**
 * Reads one operation into the single request it stands for, the lids in it replaced by `idOf`; with a
 * `book`, the lid rules are checked (the first, database-free pass).
 */
function singleRequest(
  raw: unknown,
  pointer: string,
  request: HttpRequest,
  ctx: DecodeContext,
  book: LidBook | undefined,
  idOf: (type: string, lid: string) => string,
): { single: SingleRequest; assigns?: { type: string; lid: string } } {
  if (!isObject(raw)) throw bad('an operation must be an object', pointer);
  const unknown = Object.keys(raw).find((k) => !OPERATION_MEMBERS.has(k));
  if (unknown !== undefined) throw bad(`"${unknown}" is not a member of an operation`, `${pointer}/${unknown}`);
  const { op } = raw;
  if (op !== 'add' && op !== 'update' && op !== 'remove')
    throw bad('op must be "add", "update" or "remove"', `${pointer}/op`);
  if (raw.ref !== undefined && raw.href !== undefined)
    throw bad('an operation targets by ref or by href, never both', `${pointer}/href`);
  const target =
    raw.ref !== undefined
      ? refTarget(raw.ref, `${pointer}/ref`)
      : raw.href !== undefined
        ? hrefTarget(raw.href, request, `${pointer}/href`)
        : undefined;
  const where = raw.ref !== undefined ? `${pointer}/ref` : `${pointer}/href`;
  const collectionOf = (type: string, p: string) => {
    const collection = ctx.registry.collection(type);
    if (!collection) throw bad(`there is no collection named "${type}"`, p);
    return collection;
  };
  if (target) collectionOf(target.type, raw.ref !== undefined ? `${where}/type` : where);
  // An id in the body that no key of the collection can be is malformed (400), as in a single request's body.
  const checkedId = (type: string, id: string, p: string) => {
    const parsed = parseKey(collectionOf(type, p).model, id);
    if (!parsed.ok) throw bad(`"${id}" is not a valid id of ${type}: ${parsed.reason}`, p);
    return id;
  };
  const targetId = (t: Target): string | undefined => {
    if (t.lid === undefined)
      return t.id === undefined || raw.ref === undefined ? t.id : checkedId(t.type, t.id, `${where}/id`);
    book?.use(t.type, t.lid, `${where}/lid`);
    return idOf(t.type, t.lid);
  };
  if (target?.relationship !== undefined) {
    const collection = collectionOf(target.type, where);
    const rel = collection.relationships.get(target.relationship);
    const relPointer = raw.ref !== undefined ? `${where}/relationship` : where;
    if (!rel) throw bad(`"${target.relationship}" is not a relationship of ${collection.name}`, relPointer);
    if (target.id === undefined && target.lid === undefined)
      throw bad('a relationship is targeted on one resource: give its id or lid', where);
    if (rel.cardinality === 'one' && op !== 'update')
      throw bad(`${rel.name} is a to-one relationship: only "update" changes it`, `${pointer}/op`);
    if (!('data' in raw)) throw bad('the operation needs data: the linkage', `${pointer}/data`);
    const data = identifiers(raw.data, `${pointer}/data`, book, idOf);
    const method = op === 'add' ? 'POST' : op === 'remove' ? 'DELETE' : 'PATCH';
    return { single: { method, type: target.type, id: targetId(target)!, relationship: rel.name, data } };
  }
  if (op === 'remove') {
    if (!target) throw bad('remove needs a ref or an href naming the resource', pointer);
    if (target.id === undefined && target.lid === undefined)
      throw bad('remove needs the id or lid of the resource', where);
    if (raw.data !== undefined) throw bad('remove of a resource takes no data', `${pointer}/data`);
    return { single: { method: 'DELETE', type: target.type, id: targetId(target)! } };
  }
  if (!isObject(raw.data)) throw bad('data must be a resource object', `${pointer}/data`);
  const data = raw.data;
  if (typeof data.type !== 'string') throw bad('the resource object needs a type', `${pointer}/data/type`);
  if (data.lid !== undefined && typeof data.lid !== 'string') throw bad('lid must be a string', `${pointer}/data/lid`);
  if (data.lid !== undefined && data.id !== undefined)
    throw bad('the resource object has both id and lid: give one', `${pointer}/data/lid`);
  const collection = collectionOf(data.type, `${pointer}/data/type`);
  const { lid, ...rest } = resourceWithIds(data, `${pointer}/data`, book, idOf);
  if (op === 'add') {
    if (target && (target.id !== undefined || target.lid !== undefined || raw.ref !== undefined))
      throw bad('add of a resource targets its collection: no ref, an href to the collection at most', where);
    if (target && target.type !== collection.name)
      throw ApiError.conflict(`type "${collection.name}" does not match the href's collection "${target.type}"`, {
        pointer: `${pointer}/data/type`,
      });
    // A lid is assigned after its own operation: one it uses itself is not known yet.
    if (typeof lid === 'string') book?.assign(collection.name, lid, `${pointer}/data/lid`);
    return {
      single: { method: 'POST', type: collection.name, data: rest },
      ...(typeof lid === 'string' ? { assigns: { type: collection.name, lid } } : {}),
    };
  }
  // update of a resource: data names it, by id or lid; a ref or href must name the same one.
  let id: string | undefined =
    typeof rest.id === 'string' ? checkedId(collection.name, rest.id, `${pointer}/data/id`) : undefined;
  if (typeof lid === 'string') {
    book?.use(collection.name, lid, `${pointer}/data/lid`);
    id = idOf(collection.name, lid);
  }
  if (id === undefined && rest.id === undefined)
    throw bad('the resource object needs an id or a lid', `${pointer}/data/id`);
  if (target) {
    if (target.type !== collection.name)
      throw ApiError.conflict(`type "${collection.name}" does not match the target's type "${target.type}"`, {
        pointer: `${pointer}/data/type`,
      });
    const targetKey = targetId(target);
    if (targetKey === undefined) throw bad('update needs the id or lid of the resource', where);
    if (target.lid !== undefined ? target.lid !== lid : target.id !== rest.id)
      throw ApiError.conflict('the resource object and the target name different resources', {
        pointer: `${pointer}/data/${lid !== undefined ? 'lid' : 'id'}`,
      });
  }
  return { single: { method: 'PATCH', type: collection.name, id: id ?? (rest.id as string), data: { ...rest, id } } };
}

/** The operation of a single request, as decodeWrite reads it for the same path, method and body. */
function decodeSingle(single: SingleRequest, request: HttpRequest, ctx: DecodeContext) {
  const collection = ctx.registry.collection(single.type)!;
  // The collection's registered methods bound its operations as they bound its single requests.
  if (!collection.methods.has(single.method))
    throw ApiError.forbidden(
      `${collection.name} does not allow ${single.method} requests, nor the operations they stand for`,
    );
  const path = [single.type, single.id, single.relationship && 'relationships', single.relationship]
    .filter((s): s is string => s !== undefined)
    .map(encodeURIComponent)
    .join('/');
  const route = {
    collection: single.type,
    ...(single.id !== undefined ? { id: single.id } : {}),
    ...(single.relationship !== undefined ? { relation: single.relationship, relationships: true } : {}),
  };
  return decodeWrite(
    {
      method: single.method,
      url: new URL(`${request.base}/${path}`),
      base: request.base,
      route,
      headers: request.headers,
      hasBody: single.data !== undefined,
      body: { data: single.data },
    },
    collection,
    ctx,
  );
}

/**
 * Every operation of an atomic request, checked in a first pass that needs no database: the document, each
 * operation's shape, ref and href, the lid rules, and each operation as its single request's decoding checks
 * it (lids standing in as valid ids). The errors of all operations come back together.
 */
export function atomicPlan(request: HttpRequest, ctx: DecodeContext, max: number): AtomicStep[] {
  const ops = operationsOf(request.body, max);
  const book = new LidBook();
  const errors: ApiError[] = [];
  const steps: AtomicStep[] = [];
  const standInOf = (type: string) => {
    const collection = ctx.registry.collection(type);
    return collection ? standIn(collection) : '1';
  };
  ops.forEach((raw, i) => {
    const pointer = `${ROOT}/${i}`;
    try {
      const { single, assigns } = singleRequest(raw, pointer, request, ctx, book, standInOf);
      decodeSingle(single, request, ctx);
      steps.push({
        pointer,
        ...(assigns ? { assigns } : {}),
        operation: (ids: LocalIds, runCtx: DecodeContext) => {
          const idOf = (type: string, lid: string) => ids.get(type)?.get(lid) ?? standInOf(type);
          try {
            return decodeSingle(singleRequest(raw, pointer, request, runCtx, undefined, idOf).single, request, runCtx);
          } catch (error) {
            throw error instanceof ApiError ? locate(error, pointer) : error;
          }
        },
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      errors.push(locate(error, pointer));
    }
  });
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) {
    const status = errors.every((e) => e.status === errors[0]!.status) ? errors[0]!.status : 400;
    throw new ApiErrors(status, errors);
  }
  return steps;
}

import fc from 'fast-check';
import type { FuzzRequest } from './fuzz-request.js';
import { hostileJson, hostileString, nameFrom, rawJsonText, typedValue } from './hostile.js';
import { mutated } from './mutate.js';
import {
  callback,
  filterTree,
  id,
  jsonText,
  method,
  pageNumber,
  RELATION_TARGET,
  requestOf,
  strayPath,
} from './request-parts.js';
import { COLLECTIONS, COLUMNS, FIELD_PATHS, FUNCTIONS, RELATIONS, shapeOf, WRITABLE } from './schema-names.js';

const MEDIA = 'application/vnd.api+json';
const list = (item: fc.Arbitrary<string>) => fc.array(item, { maxLength: 4 }).map((a) => a.join(','));
const anyField = nameFrom([...COLUMNS, ...RELATIONS, ...FIELD_PATHS('.')]);

/** The names a client may use on a collection, mostly its own. */
function fieldOf(collection: string): fc.Arbitrary<string> {
  const shape = shapeOf(collection);
  const own = [...Object.keys(shape.columns), ...shape.paths];
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: anyField });
}

function includeOf(collection: string): fc.Arbitrary<string> {
  const rels = shapeOf(collection).relations;
  const deeper = rels.flatMap((r) => shapeOf(RELATION_TARGET[r]!).relations.map((s) => `${r}.${s}`));
  const own = [...rels, ...deeper, ...deeper.map((p) => `${p}.author.articles`)];
  return own.length
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: nameFrom([...RELATIONS]) })
    : nameFrom([...RELATIONS]);
}

const pair = (name: string) => (v: string) => [name, v] as [string, string];

/** One query parameter of a Format A read on a collection, hostile in its name or its value. */
function parameter(collection: string): fc.Arbitrary<[string, string]> {
  const field = fieldOf(collection);
  const sortKey = fc.tuple(fc.constantFrom('', '', '-', '+', '--'), field).map(([sign, f]) => sign + f);
  const fieldset = fc.tuple(
    fc.oneof({ weight: 3, arbitrary: fc.constant(collection) }, { weight: 1, arbitrary: nameFrom(COLLECTIONS) }),
    list(fieldOf(collection)),
  );
  const functions = mutated(fc.array(fc.record({ name: nameFrom(FUNCTIONS), field }), { maxLength: 4 }));
  return fc.oneof(
    {
      weight: 5,
      arbitrary: jsonText(mutated(fc.array(filterTree(collection, '.'), { maxLength: 3 }))).map(
        pair('filter[objects]'),
      ),
    },
    { weight: 2, arbitrary: fc.oneof(list(sortKey), hostileString).map(pair('sort')) },
    { weight: 1, arbitrary: fc.oneof(list(field), hostileString).map(pair('group')) },
    { weight: 2, arbitrary: fc.oneof(list(includeOf(collection)), hostileString).map(pair('include')) },
    { weight: 2, arbitrary: fieldset.map(([t, v]) => [`fields[${t}]`, v] as [string, string]) },
    { weight: 1, arbitrary: fc.oneof(list(field), hostileString).map(pair('only')) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('page[number]', 'page[size]'), pageNumber) },
    {
      weight: 1,
      arbitrary: fc.oneof(fc.constantFrom('0', '1', '2', 'true', ''), hostileString).map(pair('filter[single]')),
    },
    { weight: 1, arbitrary: callback.map(pair('callback')) },
    { weight: 2, arbitrary: jsonText(functions).map(pair('functions')) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.oneof(
          hostileString,
          fc.constantFrom('filter[x]', 'page[offset]', 'fields', 'filter', 'Sort', '_', 'include[]'),
        ),
        hostileString,
      ),
    },
  );
}

const query = (collection: string) => fc.array(parameter(collection), { maxLength: 3 });

const TO_ONE = new Set(['author', 'article']);

/** A resource identifier of the relationship's type, of a resource that exists. */
const identifier = (relation: string) =>
  fc.record({ type: fc.constant(RELATION_TARGET[relation] ?? relation), id: fc.constantFrom('1', '2', '3') });

function linkage(relation: string): fc.Arbitrary<unknown> {
  return TO_ONE.has(relation)
    ? fc.option(identifier(relation), { nil: null, freq: 4 })
    : fc.array(identifier(relation), { maxLength: 3 });
}

/** The attributes of a write: the collection's own (foreign keys are relationships), values of their type. */
function attributes(collection: string): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(shapeOf(collection).columns)
    .filter(([name]) => name !== 'id' && !name.endsWith('_id'))
    .map(([name, kind]) => fc.tuple(fc.constant(name), typedValue(kind)));
  return fc.array(fc.oneof(...entries), { maxLength: 4 }).map((e) => Object.fromEntries(e));
}

function relationships(collection: string): fc.Arbitrary<Record<string, unknown>> {
  const own = shapeOf(collection).relations;
  if (own.length === 0) return fc.constant({});
  const entry = fc.constantFrom(...own).chain((r) => fc.tuple(fc.constant(r), fc.record({ data: linkage(r) })));
  return fc.array(entry, { maxLength: 2 }).map((e) => Object.fromEntries(e));
}

/** The body of a create or update: a valid resource object of the collection, then perhaps one hostile change. */
function resourceBody(collection: string, resourceId?: string): fc.Arbitrary<string> {
  const data = fc.record(
    {
      type: fc.constant(collection),
      ...(resourceId === undefined ? {} : { id: fc.constant(resourceId) }),
      attributes: attributes(collection),
      relationships: relationships(collection),
    },
    { requiredKeys: resourceId === undefined ? ['type', 'attributes'] : ['type', 'id'] },
  );
  return fc.oneof(
    { weight: 12, arbitrary: mutated(fc.record({ data })).map((b) => JSON.stringify(b) ?? '') },
    { weight: 1, arbitrary: rawJsonText },
  );
}

const request = requestOf(MEDIA);

const collection = nameFrom(COLLECTIONS);
const writable = nameFrom(WRITABLE);
const relationOf = (c: string) => nameFrom(shapeOf(c).relations.length ? shapeOf(c).relations : RELATIONS);
const readQuery = fc.constant([] as [string, string][]);
/** Writes take few parameters (`include`, `fields`); a list parameter on them is refused, now and then tried. */
const writeQuery = (c: string) => fc.oneof({ weight: 5, arbitrary: readQuery }, { weight: 1, arbitrary: query(c) });

/** Every kind of Format A request, each with hostile values where a client chooses them. */
export const jsonApiRequests: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { weight: 8, arbitrary: collection.chain((c) => request(method(['GET']), fc.constant([c]), query(c))) },
  {
    weight: 2,
    arbitrary: collection.chain((c) => request(method(['GET', 'DELETE']), fc.tuple(fc.constant(c), id), query(c))),
  },
  {
    weight: 3,
    arbitrary: collection.chain((c) =>
      relationOf(c).chain((r) =>
        request(method(['GET']), fc.tuple(fc.constant(c), id, fc.constant(r)), query(RELATION_TARGET[r] ?? c)),
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: collection.chain((c) =>
      request(method(['GET']), fc.tuple(fc.constant(c), id, relationOf(c), id), query(c)),
    ),
  },
  {
    weight: 1,
    arbitrary: collection.chain((c) =>
      request(method(['GET']), fc.tuple(fc.constant(c), id, fc.constant('relationships'), relationOf(c)), readQuery),
    ),
  },
  { weight: 3, arbitrary: collection.chain((c) => request(method(['GET']), fc.constant(['eval', c]), query(c))) },
  {
    weight: 6,
    arbitrary: writable.chain((c) => request(method(['POST']), fc.constant([c]), writeQuery(c), resourceBody(c))),
  },
  {
    weight: 4,
    arbitrary: fc
      .tuple(writable, id)
      .chain(([c, i]) => request(method(['PATCH']), fc.constant([c, i]), writeQuery(c), resourceBody(c, i))),
  },
  {
    weight: 4,
    arbitrary: fc.tuple(writable, id).chain(([c, i]) =>
      relationOf(c).chain((r) =>
        request(
          method(['PATCH', 'POST', 'DELETE']),
          fc.constant([c, i, 'relationships', r]),
          readQuery,
          mutated(fc.record({ data: linkage(r) })).map((b) => JSON.stringify(b) ?? ''),
        ),
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: request(
      method(['GET', 'POST']),
      strayPath,
      readQuery,
      fc.option(
        hostileJson.map((b) => JSON.stringify(b) ?? ''),
        { nil: undefined },
      ),
    ),
  },
);

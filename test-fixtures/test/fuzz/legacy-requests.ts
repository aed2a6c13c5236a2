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

const MEDIA = 'application/json';
const TO_ONE = new Set(['author', 'article']);
const anyField = nameFrom([...COLUMNS, ...FIELD_PATHS('__')]);

/** A field of a collection as Format B names it: a column, or `relation__column` along to-one relationships. */
function fieldOf(collection: string): fc.Arbitrary<string> {
  const shape = shapeOf(collection);
  const own = [...Object.keys(shape.columns), ...shape.paths.map((p) => p.split('.').join('__'))];
  return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: anyField });
}

/** A search object `q`: every member optional, each valid, then perhaps one hostile change. */
function search(collection: string): fc.Arbitrary<unknown> {
  const field = fieldOf(collection);
  return mutated(
    fc.record(
      {
        filters: fc.array(filterTree(collection, '__'), { maxLength: 3 }),
        disjunction: fc.boolean(),
        limit: fc.integer({ min: 1, max: 20 }),
        offset: fc.integer({ min: 0, max: 10 }),
        order_by: fc.array(
          fc.record({ field, direction: fc.constantFrom('asc', 'desc') }, { requiredKeys: ['field'] }),
          { maxLength: 2 },
        ),
        group_by: fc.array(fc.record({ field }), { maxLength: 1 }),
        single: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  );
}

/** Function evaluation's `q`: functions, filters and disjunction only. */
function evaluation(collection: string): fc.Arbitrary<unknown> {
  const own = Object.keys(shapeOf(collection).columns);
  const fn = fc.record({
    name: nameFrom(FUNCTIONS),
    field: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: anyField }),
  });
  return mutated(
    fc.record(
      {
        functions: fc.array(fn, { maxLength: 3 }),
        filters: fc.array(filterTree(collection, '__'), { maxLength: 2 }),
        disjunction: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  );
}

const pair = (name: string) => (v: string) => [name, v] as [string, string];

function parameter(_collection: string, q: fc.Arbitrary<unknown>): fc.Arbitrary<[string, string]> {
  return fc.oneof(
    { weight: 6, arbitrary: jsonText(q).map(pair('q')) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('page', 'results_per_page'), pageNumber) },
    { weight: 1, arbitrary: callback.map(pair('callback')) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.oneof(hostileString, fc.constantFrom('Q', 'q[]', 'filter[objects]', 'sort', 'include')),
        hostileString,
      ),
    },
  );
}

const query = (collection: string, q = search(collection)) => fc.array(parameter(collection, q), { maxLength: 3 });

/** The field values of an object of a collection: its own columns (foreign keys too), values of their type. */
function values(collection: string): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(shapeOf(collection).columns)
    .filter(([name]) => name !== 'id')
    .map(([name, kind]) =>
      fc.tuple(fc.constant(name), name.endsWith('_id') ? fc.constantFrom(1, 2, 3, null) : typedValue(kind)),
    );
  return fc.array(fc.oneof(...entries), { maxLength: 3 }).map((e) => Object.fromEntries(e));
}

/** A related instance: an existing one by id (perhaps with new values), or a new one. */
function related(relation: string): fc.Arbitrary<unknown> {
  const target = RELATION_TARGET[relation] ?? 'person';
  const existing = fc.constantFrom(1, 2, 3).map((i) => ({ id: i }));
  // A new tag needs a name nobody has: the name column is unique and not null.
  const fresh =
    target === 'tag' ? fc.string({ minLength: 1, maxLength: 12 }).map((n) => ({ name: `t-${n}` })) : values(target);
  return fc.oneof(
    { weight: 4, arbitrary: existing },
    { weight: 2, arbitrary: fresh },
    { weight: 1, arbitrary: fc.tuple(existing, values(target)).map(([e, v]) => ({ ...v, ...e })) },
  );
}

/** The value of a relationship in a write body, in every form of the specification's table. */
function relationValue(relation: string): fc.Arbitrary<unknown> {
  const one = related(relation);
  const removal = fc.constantFrom(1, 2, 3).chain((i) =>
    fc.oneof(
      fc.constant({ id: i }),
      fc.boolean().map((d) => ({ id: i, __delete__: d })),
    ),
  );
  if (TO_ONE.has(relation)) {
    return fc.oneof(
      one,
      fc.constant(null),
      one.map((r) => ({ add: r })),
      fc.constantFrom(1, 2).map((i) => ({ remove: { id: i } })),
    );
  }
  return fc.oneof(
    fc.array(one, { maxLength: 3 }),
    fc.array(one, { maxLength: 2 }).map((a) => ({ add: a })),
    fc.array(removal, { maxLength: 2 }).map((a) => ({ remove: a })),
  );
}

/** A create or update body: field values and relationship changes, then perhaps one hostile change. */
function writeBody(collection: string): fc.Arbitrary<string> {
  const own = shapeOf(collection).relations;
  const rels = own.length
    ? fc.array(
        fc.constantFrom(...own).chain((r) => fc.tuple(fc.constant(r), relationValue(r))),
        { maxLength: 2 },
      )
    : fc.constant([]);
  const body = fc.tuple(values(collection), rels).map(([v, r]) => ({ ...v, ...Object.fromEntries(r) }));
  return fc.oneof(
    { weight: 12, arbitrary: mutated(body).map((b) => JSON.stringify(b) ?? '') },
    { weight: 1, arbitrary: rawJsonText },
  );
}

/** A bulk update: field values and `q` (filters and disjunction) in the body, as an object or as JSON text. */
function bulkBody(collection: string): fc.Arbitrary<string> {
  const q = fc.record(
    { filters: fc.array(filterTree(collection, '__'), { maxLength: 2 }), disjunction: fc.boolean() },
    { requiredKeys: [] },
  );
  const body = fc
    .tuple(
      values(collection),
      fc.option(
        fc.oneof(
          q,
          q.map((x) => JSON.stringify(x)),
        ),
        { nil: undefined },
      ),
    )
    .map(([v, s]) => (s === undefined ? v : { ...v, q: s }));
  return mutated(body).map((b) => JSON.stringify(b) ?? '');
}

const request = requestOf(MEDIA);

const collection = nameFrom(COLLECTIONS);
const writable = nameFrom(WRITABLE);
const relationOf = (c: string) => nameFrom(shapeOf(c).relations.length ? shapeOf(c).relations : RELATIONS);
const none = fc.constant([] as [string, string][]);
const rarely = (c: string) => fc.oneof({ weight: 5, arbitrary: none }, { weight: 1, arbitrary: query(c) });

/** Every kind of Format B request, each with hostile values where a client chooses them. */
export const legacyRequests: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { weight: 8, arbitrary: collection.chain((c) => request(method(['GET']), fc.constant([c]), query(c))) },
  {
    weight: 2,
    arbitrary: collection.chain((c) => request(method(['GET', 'DELETE']), fc.tuple(fc.constant(c), id), rarely(c))),
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
    weight: 2,
    arbitrary: collection.chain((c) =>
      request(method(['GET', 'DELETE']), fc.tuple(fc.constant(c), id, relationOf(c), id), rarely(c)),
    ),
  },
  {
    weight: 3,
    arbitrary: collection.chain((c) => request(method(['GET']), fc.constant(['eval', c]), query(c, evaluation(c)))),
  },
  { weight: 6, arbitrary: writable.chain((c) => request(method(['POST']), fc.constant([c]), rarely(c), writeBody(c))) },
  {
    weight: 5,
    arbitrary: fc
      .tuple(writable, id)
      .chain(([c, i]) => request(method(['PATCH', 'PUT']), fc.constant([c, i]), rarely(c), writeBody(c))),
  },
  {
    weight: 3,
    arbitrary: writable.chain((c) => request(method(['PATCH', 'PUT']), fc.constant([c]), rarely(c), bulkBody(c))),
  },
  {
    weight: 1,
    arbitrary: request(
      method(['GET', 'POST']),
      strayPath,
      none,
      fc.option(
        hostileJson.map((b) => JSON.stringify(b) ?? ''),
        { nil: undefined },
      ),
    ),
  },
);

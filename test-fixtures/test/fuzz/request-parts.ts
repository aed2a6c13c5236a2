import fc from 'fast-check';
import type { FuzzRequest } from './fuzz-request.js';
import { fieldValue, hostileNumber, hostileString, nameFrom, rawJsonText, sometimes, typedValue } from './hostile.js';
import { COLUMNS, FIELD_PATHS, IDS, OPERATORS, RELATIONS, shapeOf } from './schema-names.js';

/** The type behind each relationship name of the conformance target, for linkage that can succeed. */
export const RELATION_TARGET: Readonly<Record<string, string>> = {
  articles: 'article',
  comments: 'comment',
  author: 'person',
  tags: 'tag',
  article: 'article',
};

export const id: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('1', '2', '3') },
  { weight: 3, arbitrary: fc.constantFrom(...IDS) },
  { weight: 1, arbitrary: hostileString },
);

/**
 * A filter object tree on `collection` in the grammar both formats share: mostly the collection's own fields
 * with values of their type, so that many filters reach SQL, and hostile names, operators, values and shapes.
 */
export function filterTree(collection: string, separator: string): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 12, arbitrary: node(collection, separator, 0) },
    { weight: 1, arbitrary: deepFilter },
    { weight: 1, arbitrary: manyFilters },
  );
}

const nodes = new Map<string, fc.Arbitrary<unknown>>();

function node(collection: string, separator: string, depth: number): fc.Arbitrary<unknown> {
  const key = `${collection}/${separator}/${depth}`;
  const known = nodes.get(key);
  if (known) return known;
  const shape = shapeOf(collection);
  const anyName = nameFrom([...COLUMNS, ...RELATIONS, ...FIELD_PATHS(separator)]);
  // Mostly the operators themselves: the names around them carry the hostility.
  const op = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...OPERATORS) },
    { weight: 1, arbitrary: nameFrom(OPERATORS) },
  );
  const fields: [string, string][] = [
    ...Object.entries(shape.columns),
    ...shape.paths.map((p): [string, string] => [p.split('.').join(separator), 'text']),
  ];
  const typed = fc.constantFrom(...fields).chain(([name, kind]) =>
    fc.record({
      name: fc.oneof({ weight: 8, arbitrary: fc.constant(name) }, { weight: 1, arbitrary: anyName }),
      op,
      val: fc.oneof(
        { weight: 4, arbitrary: typedValue(kind) },
        { weight: 1, arbitrary: fc.array(typedValue(kind), { maxLength: 4 }) },
      ),
    }),
  );
  const own = fc.constantFrom(...fields.map(([n]) => n));
  const leaf = fc.oneof(
    { weight: 10, arbitrary: typed },
    { weight: 2, arbitrary: fc.record({ name: own, op, field: own }) },
    { weight: 2, arbitrary: fc.record({ name: own, op: fc.constantFrom('is_null', 'is_not_null', '==') }) },
    {
      weight: 1,
      arbitrary: fc.record(
        { name: sometimes(anyName), op: sometimes(op), val: sometimes(fieldValue), field: sometimes(anyName) },
        { requiredKeys: [] },
      ),
    },
  );
  const options: fc.WeightedArbitrary<unknown>[] = [{ weight: 10, arbitrary: leaf }];
  if (depth < 2) {
    const inner = node(collection, separator, depth + 1);
    options.push({ weight: 1, arbitrary: fc.record({ or: fc.array(inner, { maxLength: 3 }) }) });
    options.push({ weight: 1, arbitrary: fc.record({ and: fc.array(inner, { maxLength: 3 }) }) });
    for (const rel of shape.relations) {
      const target = node(RELATION_TARGET[rel] ?? collection, separator, depth + 1);
      options.push({
        weight: 1,
        arbitrary: fc.record({
          name: fc.constant(rel),
          op: nameFrom(['has', 'any']),
          val: fc.option(target, { nil: undefined }),
        }),
      });
    }
  }
  const arb = fc.oneof(...options);
  nodes.set(key, arb);
  return arb;
}

/** Beyond the depth limit: nesting of every kind. */
const deepFilter = fc
  .tuple(fc.integer({ min: 1, max: 60 }), fc.constantFrom('or', 'and', 'has', 'any'))
  .map(([n, kind]) => {
    let tree: unknown = { name: 'age', op: '>', val: 1 };
    for (let i = 0; i < n; i++) {
      tree =
        kind === 'has'
          ? { name: 'author', op: 'has', val: tree }
          : kind === 'any'
            ? { name: 'comments', op: 'any', val: tree }
            : { [kind]: [tree] };
    }
    return tree;
  });

/** Beyond the size limit: many filter objects and long lists. */
const manyFilters = fc
  .integer({ min: 50, max: 700 })
  .map((n) => ({ or: Array.from({ length: n }, (_, i) => ({ name: 'id', op: 'in', val: [i, i + 1] })) }));

/** JSON text of a parameter: usually a JSON-encoded value, sometimes raw text. */
export function jsonText(value: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: value.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: rawJsonText },
    { weight: 1, arbitrary: hostileString },
  );
}

export const pageNumber: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 12 }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '0',
      '-1',
      '1.5',
      '1e3',
      '01',
      '100',
      '101',
      '999999999',
      '9999999999',
      '',
      ' 1',
      '0x10',
    ),
  },
  { weight: 1, arbitrary: hostileNumber.map(String) },
  { weight: 1, arbitrary: hostileString },
);

export const callback: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('cb', 'app.handle', 'a.b.c', '_$', 'constructor') },
  { weight: 1, arbitrary: fc.constantFrom('1cb', 'cb()', 'alert(1)//', 'a..b', 'x'.repeat(200), '</script>') },
  { weight: 1, arbitrary: hostileString },
);

/** Accept and Content-Type headers: the format's own mostly, others and malformed ones sometimes. */
export function headers(mediaType: string, withBody: boolean): fc.Arbitrary<Record<string, string>> {
  const header = (own: string) =>
    fc.oneof(
      { weight: 40, arbitrary: fc.constant(own) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          '',
          '*/*',
          'application/json',
          'text/html',
          `${mediaType}; ext="a,b"`,
          `${mediaType}; charset=utf-8`,
          `${mediaType}; charset=latin-9`,
          'application/*',
          `${mediaType};q=0`,
          'a/b/c',
          ';;;,,,',
        ),
      },
      // Only characters a header may carry: fetch refuses the others before sending.
      { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, '')) },
    );
  return fc
    .record({ accept: header(mediaType), ...(withBody ? { 'content-type': header(mediaType) } : {}) })
    .map((h) => {
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(h)) if (v !== '') out[k] = v.trim();
      return out;
    });
}

/** A method for a kind of path: its own ones mostly, any other sometimes. */
export function method(own: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...own) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND') },
  );
}

/** Path segments that name nothing, or something by accident. */
export const strayPath: fc.Arbitrary<string[]> = fc.array(
  fc.oneof(hostileString, fc.constantFrom('api', 'eval', 'relationships', 'person', '1')),
  { minLength: 0, maxLength: 6 },
);

/** A request of one format: its method, path, query and body arbitraries, with the format's headers. */
export function requestOf(mediaType: string) {
  return (
    method: fc.Arbitrary<string>,
    segments: fc.Arbitrary<string[]>,
    q: fc.Arbitrary<[string, string][]>,
    body?: fc.Arbitrary<string | undefined>,
  ): fc.Arbitrary<FuzzRequest> =>
    fc
      .record({
        method,
        segments,
        query: q,
        headers: headers(mediaType, !!body),
        body: body ?? fc.constant(undefined),
        trailingSlash: fc.oneof(
          { weight: 30, arbitrary: fc.constant(false) },
          { weight: 1, arbitrary: fc.constant(true) },
        ),
      })
      .map(({ body: b, ...rest }) => (b === undefined ? rest : { ...rest, body: b }));
}

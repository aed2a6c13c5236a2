import type { Filter, ScalarValue } from '@colapi/query-ast';
import { coerceValue } from '@colapi/query-ast';
import { expect } from 'chai';
import fc from 'fast-check';
import { on, who } from './helpers.js';
import { registry } from './registry.js';

/**
 * Random rules over projects (tenant_id integer, owner_id string, any tag by name), with claims and literals,
 * against random tokens whose claims are missing, null, or of every JSON type. The resolved filter must hold
 * no claim, no null and no undefined, and must select exactly the rows the rule means, a comparison whose
 * claim is unfit being false.
 */

type Json = Record<string, unknown>;
const CLAIMS = ['t', 's', 'list', 'org.t'] as const;
const claim = fc.constantFrom(...CLAIMS).map((c) => ({ claim: c }));
const literal = { tenant_id: fc.integer({ min: 0, max: 3 }), owner_id: fc.constantFrom('a', 'b', 'c') };
const COLUMN = {
  tenant_id: registry.collection('projects')!.columns.get('tenant_id')!,
  owner_id: registry.collection('projects')!.columns.get('owner_id')!,
};

const leaf: fc.Arbitrary<Json> = fc.constantFrom('tenant_id', 'owner_id').chain((name) => {
  const one = fc.oneof(literal[name as 'tenant_id'] as fc.Arbitrary<unknown>, claim);
  return fc.oneof(
    fc.record({ name: fc.constant(name), op: fc.constantFrom('==', '!=', '<', '>='), val: one }),
    fc.record({
      name: fc.constant(name),
      op: fc.constantFrom('in', 'not_in'),
      val: fc.oneof(fc.array(one, { maxLength: 3 }), claim),
    }),
  );
});
const tagLeaf = fc.record({
  name: fc.constant('tags'),
  op: fc.constant('any'),
  val: fc.record({ name: fc.constant('name'), op: fc.constant('=='), val: fc.oneof(fc.constantFrom('x', 'y'), claim) }),
});
const { node } = fc.letrec<{ node: Json }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    tagLeaf,
    fc.record({ and: fc.array(tie('node'), { maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('node'), { maxLength: 3 }) }),
  ),
}));
const rule = fc.array(node, { minLength: 1, maxLength: 3 });

const claimValue = fc.oneof(
  fc.integer({ min: -1, max: 3 }),
  fc.constantFrom('1', '2', 'a', 'b', 'x', '1.5', '', 'CURRENT_DATE'),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('a', '2', 'x')), { maxLength: 3 }),
  fc.constant({ t: 1 }),
);
const claims = fc.record(
  { t: claimValue, s: claimValue, list: claimValue, org: fc.oneof(fc.record({ t: claimValue }), claimValue) },
  { requiredKeys: [] },
);

type Row = {
  readonly tenant_id: number;
  readonly owner_id: string | null;
  readonly tags: readonly string[];
};
const row: fc.Arbitrary<Row> = fc.record({
  tenant_id: fc.integer({ min: 0, max: 3 }),
  owner_id: fc.option(fc.constantFrom('a', 'b', 'c')),
  tags: fc.array(fc.constantFrom('x', 'y', 'a', '1'), { maxLength: 2 }),
});

/** Compares as SQL does; a NULL operand is unknown, and with no negation in the language unknown is false. */
function compare(left: unknown, op: string, right: unknown): boolean {
  if (left === null || left === undefined) return op === 'not_in' && (right as unknown[]).length === 0;
  switch (op) {
    case 'eq':
      return left === right;
    case 'ne':
      return left !== right;
    case 'lt':
      return (left as number) < (right as number);
    case 'ge':
      return (left as number) >= (right as number);
    case 'in':
      return (right as unknown[]).includes(left);
    case 'not_in':
      return !(right as unknown[]).includes(left);
  }
  throw new Error(`no ${op}`);
}

/** The resolved filter on a row, as sql-compiler's SQL would answer. */
function evaluate(filter: Filter, values: Readonly<Record<string, unknown>>, tags: readonly string[]): boolean {
  switch (filter.kind) {
    case 'and':
      return filter.filters.every((f) => evaluate(f, values, tags));
    case 'or':
      return filter.filters.some((f) => evaluate(f, values, tags));
    case 'relation':
      return tags.some((name) => evaluate(filter.filter!, { name }, []));
    case 'compare':
      return compare(values[filter.field.column], filter.op, filter.value);
    default:
      throw new Error(`no ${filter.kind}`);
  }
}

const OPS: Record<string, string> = { '==': 'eq', '!=': 'ne', '<': 'lt', '>=': 'ge', in: 'in', not_in: 'not_in' };
const STRING = registry.collection('tags')!.columns.get('name')!;

/** The rule's meaning, read straight from its JSON: an unfit claim makes its comparison false. */
function meaning(
  json: Json,
  claimsOf: Json,
  values: Readonly<Record<string, unknown>>,
  tags: readonly string[],
): boolean {
  if (Array.isArray(json.and)) return json.and.every((f) => meaning(f, claimsOf, values, tags));
  if (Array.isArray(json.or)) return json.or.some((f) => meaning(f, claimsOf, values, tags));
  if (json.op === 'any') return tags.some((name) => meaning(json.val as Json, claimsOf, { name }, []));
  const column = json.name === 'name' ? STRING : COLUMN[json.name as 'tenant_id'];
  const coerce = (v: unknown): ScalarValue | undefined => {
    if (v === null || v === undefined) return undefined;
    try {
      const value = coerceValue(column, v, { source: {}, path: '' });
      return typeof value === 'object' ? undefined : value;
    } catch {
      return undefined;
    }
  };
  const read = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    let current: unknown = claimsOf;
    for (const segment of String((v as Json).claim).split('.')) {
      current =
        typeof current === 'object' && current !== null && Object.hasOwn(current, segment)
          ? (current as Json)[segment]
          : undefined;
    }
    return current;
  };
  const op = OPS[json.op as string]!;
  let right: unknown;
  if (op === 'in' || op === 'not_in') {
    const list = Array.isArray(json.val) ? json.val.map(read) : read(json.val);
    if (!Array.isArray(list)) return false;
    const fitted = list.map(coerce);
    if (fitted.includes(undefined)) return false;
    right = fitted;
  } else {
    right = coerce(read(json.val));
    if (right === undefined) return false;
  }
  return compare(values[json.name as string], op, right);
}

/** Every value in the resolved filter: none may be a claim, null or undefined. */
function* valuesOf(filter: Filter): Generator<unknown> {
  if (filter.kind === 'and' || filter.kind === 'or') for (const f of filter.filters) yield* valuesOf(f);
  else if (filter.kind === 'relation' && filter.filter) yield* valuesOf(filter.filter);
  else if (filter.kind === 'compare') yield* Array.isArray(filter.value) ? filter.value : [filter.value];
}

describe('resolved filters (property)', () => {
  it('never hold a claim, a null or an undefined, and select what the rule means', () => {
    fc.assert(
      fc.property(rule, claims, fc.array(row, { minLength: 1, maxLength: 4 }), (where, tokenClaims, rows) => {
        const scope = on('projects', { read: { where } }).scope(who(tokenClaims), 'projects')!;
        const filter = scope.read!.where!;
        expect(JSON.stringify(filter)).not.to.include('"claim"');
        for (const value of valuesOf(filter)) {
          expect(value).not.to.equal(null);
          expect(value).not.to.equal(undefined);
          expect(typeof value === 'object' ? value : {}).not.to.have.property('claim');
        }
        for (const r of rows) {
          const expected = where.every((f) => meaning(f, tokenClaims, r, r.tags));
          expect(evaluate(filter, r, r.tags), JSON.stringify({ where, tokenClaims, r })).to.equal(expected);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('set never holds null for a claim: a value of its column or MISSING_CLAIM', () => {
    const policy = on('projects', {
      read: true,
      create: { set: { tenant_id: { claim: 't' }, owner_id: { claim: 'org.t' } } },
    });
    fc.assert(
      fc.property(claims, (tokenClaims) => {
        const create = policy.scope(who(tokenClaims), 'projects')!.create!;
        for (const [name, value] of create.set) {
          expect(value, name).not.to.equal(null);
          expect(value, name).not.to.equal(undefined);
          expect(typeof value === 'symbol').to.equal(create.missing.includes(name));
        }
      }),
      { numRuns: 200 },
    );
  });
});

import { defineModel, Registry, type ColumnSchema } from '@colapi/schema';
import { expect } from 'chai';
import {
  ALL_OPERATOR_SPELLINGS,
  ApiError,
  LIKE_OPERATORS,
  LIST_OPERATORS,
  NETWORK_OPERATORS,
  OPERATORS,
  parseFilterObject,
  type FilterContext,
  type Operator,
  type OperatorArity,
} from '../src/index.js';

/** Every spelling of the specification's operator list, with its canonical operator and arity. */
const SPEC: [string, Operator, OperatorArity][] = [
  ['==', 'eq', 'binary'],
  ['eq', 'eq', 'binary'],
  ['equals', 'eq', 'binary'],
  ['equals_to', 'eq', 'binary'],
  ['!=', 'ne', 'binary'],
  ['neq', 'ne', 'binary'],
  ['does_not_equal', 'ne', 'binary'],
  ['not_equal_to', 'ne', 'binary'],
  ['>', 'gt', 'binary'],
  ['gt', 'gt', 'binary'],
  ['<', 'lt', 'binary'],
  ['lt', 'lt', 'binary'],
  ['>=', 'ge', 'binary'],
  ['ge', 'ge', 'binary'],
  ['gte', 'ge', 'binary'],
  ['geq', 'ge', 'binary'],
  ['<=', 'le', 'binary'],
  ['le', 'le', 'binary'],
  ['lte', 'le', 'binary'],
  ['leq', 'le', 'binary'],
  ['in', 'in', 'binary'],
  ['not_in', 'not_in', 'binary'],
  ['is_null', 'is_null', 'unary'],
  ['is_not_null', 'is_not_null', 'unary'],
  ['like', 'like', 'binary'],
  ['ilike', 'ilike', 'binary'],
  ['not_like', 'not_like', 'binary'],
  ['has', 'has', 'relation'],
  ['any', 'any', 'relation'],
  ['<<', 'inet_contained', 'binary'],
  ['<<=', 'inet_contained_or_equal', 'binary'],
  ['>>', 'inet_contains', 'binary'],
  ['>>=', 'inet_contains_or_equal', 'binary'],
  ['<>', 'inet_not_equal', 'binary'],
  ['&&', 'inet_overlaps', 'binary'],
];

const col = (name: string, type: ColumnSchema['type']): ColumnSchema => ({ name, type, nullable: name !== 'id' });
const registry = new Registry([
  {
    model: defineModel({
      name: 'Host',
      table: 'host',
      columns: [col('id', 'integer'), col('name', 'string'), col('address', 'inet'), col('owner_id', 'integer')],
      relationships: [
        {
          name: 'owner',
          cardinality: 'one',
          target: 'Host',
          join: { kind: 'belongs-to', ownColumn: 'owner_id', targetColumn: 'id' },
        },
        {
          name: 'owned',
          cardinality: 'many',
          target: 'Host',
          join: { kind: 'has', ownColumn: 'id', targetColumn: 'owner_id' },
        },
      ],
    }),
  },
]);
const host = registry.collection('host')!;
const ctx: FilterContext = {
  registry,
  source: { parameter: 'filter[objects]' },
  operators: ALL_OPERATOR_SPELLINGS,
  maxDepth: 8,
  maxNodes: 100,
};

/** A filter object that is valid for an operator, on a field of the right type. */
function filterFor(spelling: string, canonical: Operator, arity: OperatorArity): Record<string, unknown> {
  if (arity === 'relation')
    return { name: canonical === 'has' ? 'owner' : 'owned', op: spelling, val: { name: 'id', op: '==', val: 1 } };
  if (arity === 'unary') return { name: 'name', op: spelling };
  if (NETWORK_OPERATORS.has(canonical as never)) return { name: 'address', op: spelling, val: '10.0.0.0/8' };
  if (LIKE_OPERATORS.has(canonical as never)) return { name: 'name', op: spelling, val: 'a%' };
  if (LIST_OPERATORS.has(canonical as never)) return { name: 'name', op: spelling, val: ['a', 'b'] };
  return { name: 'name', op: spelling, val: 'a' };
}

describe('the operator catalogue', () => {
  it('knows exactly the spellings of the specification', () => {
    expect([...ALL_OPERATOR_SPELLINGS].sort()).to.deep.equal(SPEC.map(([s]) => s).sort());
  });

  for (const [spelling, canonical, arity] of SPEC) {
    it(`maps ${spelling} to ${canonical} (${arity})`, () => {
      expect(OPERATORS.get(spelling)).to.deep.equal({ canonical, arity });
    });

    it(`parses ${spelling} into a filter with ${canonical}`, () => {
      const filter = parseFilterObject(filterFor(spelling, canonical, arity), host, ctx, 'f');
      expect((filter as { op: string }).op).to.equal(canonical);
    });
  }

  it('gives the same filter for every synonym', () => {
    const groups = new Map<Operator, unknown[]>();
    for (const [spelling, canonical, arity] of SPEC) {
      const filter = parseFilterObject(filterFor(spelling, canonical, arity), host, ctx, 'f');
      groups.set(canonical, [...(groups.get(canonical) ?? []), filter]);
    }
    for (const [canonical, filters] of groups) for (const f of filters) expect(f, canonical).to.deep.equal(filters[0]);
  });

  it('classifies the operator families', () => {
    expect([...LIKE_OPERATORS].sort()).to.deep.equal(['ilike', 'like', 'not_like']);
    expect([...LIST_OPERATORS].sort()).to.deep.equal(['in', 'not_in']);
    expect(NETWORK_OPERATORS.size).to.equal(6);
    for (const op of NETWORK_OPERATORS) expect(op.startsWith('inet_')).to.equal(true);
  });

  for (const spelling of [
    '=',
    '===',
    'EQ',
    'Equals',
    'ne',
    'is',
    'not',
    'contains',
    'between',
    ' ==',
    '== ',
    '',
    'has_any',
  ]) {
    it(`refuses ${JSON.stringify(spelling)}`, () => {
      expect(OPERATORS.has(spelling)).to.equal(false);
      let error: unknown;
      try {
        parseFilterObject({ name: 'name', op: spelling, val: 'a' }, host, ctx, 'f');
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(ApiError);
      expect((error as ApiError).status).to.equal(400);
      expect((error as ApiError).source).to.deep.equal({ parameter: 'filter[objects]' });
    });
  }

  it('lets a format accept a subset of the spellings', () => {
    const narrow: FilterContext = { ...ctx, operators: new Set(['==', 'eq']) };
    expect(parseFilterObject({ name: 'name', op: 'eq', val: 'a' }, host, narrow, 'f')).to.include({ op: 'eq' });
    expect(() => parseFilterObject({ name: 'name', op: 'equals', val: 'a' }, host, narrow, 'f')).to.throw(
      ApiError,
      /unknown operator "equals"/,
    );
  });

  it('asks the database whether it can run an operator', () => {
    const noNetwork: FilterContext = {
      ...ctx,
      unsupportedOperator: (op) => (NETWORK_OPERATORS.has(op) ? 'not on this database' : undefined),
    };
    expect(() => parseFilterObject({ name: 'address', op: '<<', val: '10.0.0.0/8' }, host, noNetwork, 'f')).to.throw(
      ApiError,
      /not on this database/,
    );
    expect(parseFilterObject({ name: 'address', op: '==', val: '10.0.0.1' }, host, noNetwork, 'f')).to.include({
      op: 'eq',
    });
  });
});

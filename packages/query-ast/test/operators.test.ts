import { defineModel, Registry, type ColumnSchema } from '@colapi/schema';
import { expect } from 'chai';
import {
  ALL_OPERATOR_SPELLINGS,
  ApiError,
  CONTAINMENT_OPERATORS,
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
  // colapi's containment of lists and JSON documents (docs/decisions.md), PostgREST's short names too.
  ['contains', 'contains', 'binary'],
  ['cs', 'contains', 'binary'],
  ['contained_by', 'contained_by', 'binary'],
  ['cd', 'contained_by', 'binary'],
  ['overlaps', 'overlaps', 'binary'],
  ['ov', 'overlaps', 'binary'],
];

const col = (name: string, type: ColumnSchema['type']): ColumnSchema => ({ name, type, nullable: name !== 'id' });
const registry = new Registry([
  {
    model: defineModel({
      name: 'Host',
      table: 'host',
      columns: [
        col('id', 'integer'),
        col('name', 'string'),
        col('address', 'inet'),
        col('owner_id', 'integer'),
        { ...col('tags', 'array'), items: 'string' },
      ],
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
  if (CONTAINMENT_OPERATORS.has(canonical as never)) return { name: 'tags', op: spelling, val: ['a', 'b'] };
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
    'contain',
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

describe('operators by field type', () => {
  const typed = new Registry([
    {
      model: defineModel({
        name: 'Item',
        table: 'item',
        columns: [
          col('id', 'uuid'),
          { ...col('rating', 'enum'), values: ['G', 'PG'] },
          col('data', 'json'),
          col('bytes', 'binary'),
          { ...col('tags', 'array'), items: 'string' },
          { ...col('price', 'decimal'), precision: 5, scale: 2 },
        ],
      }),
    },
  ]);
  const item = typed.collection('item')!;
  const parse = (f: Record<string, unknown>) => parseFilterObject(f, item, { ...ctx, registry: typed }, 'f');
  const refusal = (f: Record<string, unknown>): string => {
    try {
      parse(f);
    } catch (e) {
      expect(e).to.be.instanceOf(ApiError);
      return (e as ApiError).message;
    }
    throw new Error(`accepted ${JSON.stringify(f)}`);
  };

  it('an enum takes equality and in, with one of its values', () => {
    expect(parse({ name: 'rating', op: 'in', val: ['G', 'PG'] })).to.deep.include({ value: ['G', 'PG'] });
    expect(refusal({ name: 'rating', op: '>', val: 'G' })).to.include('enum fields take equality and in');
    expect(refusal({ name: 'rating', op: '==', val: 'R' })).to.include('one of "G", "PG"');
  });

  it('a uuid is compared in lower case and orders; another text is 400 naming the field', () => {
    expect(parse({ name: 'id', op: '==', val: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11' })).to.deep.include({
      value: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    });
    expect(parse({ name: 'id', op: '>', val: '00000000-0000-0000-0000-000000000000' })).to.have.property('op', 'gt');
    expect(refusal({ name: 'id', op: '==', val: 'a0eebc99' })).to.include('field "id"');
  });

  it('containment takes a value of the field: a list for an array, any JSON for a document', () => {
    expect(parse({ name: 'tags', op: 'cs', val: ['a', 'b'] })).to.deep.include({ op: 'contains', value: '["a","b"]' });
    expect(parse({ name: 'data', op: 'contains', val: { a: [1] } })).to.deep.include({ value: '{"a":[1]}' });
    expect(refusal({ name: 'data', op: '==', val: 1 })).to.include('json fields take contains and contained_by');
    expect(refusal({ name: 'price', op: 'contains', val: 1 })).to.include('applies to lists and JSON documents');
    expect(refusal({ name: 'tags', op: 'cs', val: [1, {}] })).to.include('field "tags"');
  });

  it('a decimal is compared exactly, rounded to its scale; bytes only for equality', () => {
    expect(parse({ name: 'price', op: '>=', val: '1.005' })).to.deep.include({ value: '1.01' });
    expect(refusal({ name: 'price', op: '==', val: '1000' })).to.include('numeric(5,2)');
    expect(refusal({ name: 'bytes', op: '<', val: 'AA==' })).to.include('binary fields take equality and in');
  });
});

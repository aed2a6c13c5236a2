/** Canonical operator names; every synonym a client may send maps to one of these at parse time. */
export type BinaryOperator =
  | 'eq'
  | 'ne'
  | 'gt'
  | 'lt'
  | 'ge'
  | 'le'
  | 'in'
  | 'not_in'
  | 'like'
  | 'ilike'
  | 'not_like'
  | 'inet_contained'
  | 'inet_contained_or_equal'
  | 'inet_contains'
  | 'inet_contains_or_equal'
  | 'inet_not_equal'
  | 'inet_overlaps'
  | 'contains'
  | 'contained_by'
  | 'overlaps';
export type UnaryOperator = 'is_null' | 'is_not_null';
export type RelationOperator = 'has' | 'any';
export type Operator = BinaryOperator | UnaryOperator | RelationOperator;

export type OperatorArity = 'binary' | 'unary' | 'relation';

export interface OperatorInfo {
  readonly canonical: Operator;
  readonly arity: OperatorArity;
}

const entry = (canonical: Operator, arity: OperatorArity, synonyms: string[]) =>
  synonyms.map((s) => [s, Object.freeze({ canonical, arity })] as const);

/** Every spelling of the specification, mapped to its canonical operator. */
export const OPERATORS: ReadonlyMap<string, OperatorInfo> = new Map([
  ...entry('eq', 'binary', ['==', 'eq', 'equals', 'equals_to']),
  ...entry('ne', 'binary', ['!=', 'neq', 'does_not_equal', 'not_equal_to']),
  ...entry('gt', 'binary', ['>', 'gt']),
  ...entry('lt', 'binary', ['<', 'lt']),
  ...entry('ge', 'binary', ['>=', 'ge', 'gte', 'geq']),
  ...entry('le', 'binary', ['<=', 'le', 'lte', 'leq']),
  ...entry('in', 'binary', ['in']),
  ...entry('not_in', 'binary', ['not_in']),
  ...entry('like', 'binary', ['like']),
  ...entry('ilike', 'binary', ['ilike']),
  ...entry('not_like', 'binary', ['not_like']),
  ...entry('is_null', 'unary', ['is_null']),
  ...entry('is_not_null', 'unary', ['is_not_null']),
  ...entry('has', 'relation', ['has']),
  ...entry('any', 'relation', ['any']),
  ...entry('inet_contained', 'binary', ['<<']),
  ...entry('inet_contained_or_equal', 'binary', ['<<=']),
  ...entry('inet_contains', 'binary', ['>>']),
  ...entry('inet_contains_or_equal', 'binary', ['>>=']),
  ...entry('inet_not_equal', 'binary', ['<>']),
  ...entry('inet_overlaps', 'binary', ['&&']),
  ...entry('contains', 'binary', ['contains', 'cs']),
  ...entry('contained_by', 'binary', ['contained_by', 'cd']),
  ...entry('overlaps', 'binary', ['overlaps', 'ov']),
]);

/** Containment of lists (arrays, sets) and JSON documents: the value is one value of the column's type. */
export const CONTAINMENT_OPERATORS: ReadonlySet<BinaryOperator> = new Set(['contains', 'contained_by', 'overlaps']);

export const NETWORK_OPERATORS: ReadonlySet<BinaryOperator> = new Set([
  'inet_contained',
  'inet_contained_or_equal',
  'inet_contains',
  'inet_contains_or_equal',
  'inet_not_equal',
  'inet_overlaps',
]);

export const LIKE_OPERATORS: ReadonlySet<BinaryOperator> = new Set(['like', 'ilike', 'not_like']);
export const LIST_OPERATORS: ReadonlySet<BinaryOperator> = new Set(['in', 'not_in']);

/** The spellings a format accepts: Format A all of them, Format B the documented subset. */
export type OperatorSet = ReadonlySet<string>;
export const ALL_OPERATOR_SPELLINGS: OperatorSet = new Set(OPERATORS.keys());

/**
 * Every spelling of every comparison operator both formats share, with the persons of the standard dataset
 * (test-fixtures/src/testing/seed.ts) that `age <op> <val>` must answer: each spelling answers as its
 * canonical form.
 */
export const AGE_SYNONYMS: readonly [readonly string[], unknown, readonly number[]][] = [
  [['==', 'eq', 'equals', 'equals_to'], 25, [1]],
  [['!=', 'neq', 'does_not_equal', 'not_equal_to'], 25, [2, 4, 5]],
  [['>', 'gt'], 18, [1, 4]],
  [['<', 'lt'], 18, [2]],
  [['>=', 'ge', 'gte', 'geq'], 18, [1, 4, 5]],
  [['<=', 'le', 'lte', 'leq'], 18, [2, 5]],
  [['in'], [17, 40], [2, 4]],
  [['not_in'], [17, 40], [1, 5]],
];

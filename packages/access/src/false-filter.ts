import type { Filter } from '@colapi/query-ast';

/**
 * The filter no row meets. query-ast has no constant node, and the empty disjunction is false by
 * definition: sql-compiler already compiles `{kind: 'or', filters: []}` to `1 = 0`, so a FALSE in a
 * resolved scope runs today, everywhere a filter goes (an EXISTS of `has`/`any` included). A Format A
 * filter `{"or": []}` parses to the same node.
 */
export const FALSE: Filter = Object.freeze({ kind: 'or', filters: Object.freeze([]) as readonly Filter[] });

/** True for FALSE, or any empty `or`: a filter that is false without looking at a row. */
export const isFalse = (filter: Filter | undefined): boolean =>
  filter !== undefined && filter.kind === 'or' && filter.filters.length === 0;

/**
 * All of `filters` (undefined ones are no condition). FALSE among them makes the whole FALSE; nothing
 * else is simplified.
 */
export function allOf(...filters: (Filter | undefined)[]): Filter | undefined {
  const present = filters.filter((f): f is Filter => f !== undefined);
  if (present.some(isFalse)) return FALSE;
  if (present.length <= 1) return present[0];
  return { kind: 'and', filters: present };
}

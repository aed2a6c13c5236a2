import type { ModelSchema } from '@colapi/schema';
import type { Filter } from '@colapi/query-ast';
import { compileFilter } from './compile-filter.js';
import type { CompileContext } from './field-expression.js';
import { unscoped } from './row-scopes.js';
import { statementOf, type Statement } from './statement.js';
import { keyColumn, plainBindings, wireText } from './plain-binding.js';

/**
 * Which of these keys name no row that meets `filter`, in the order given: the rows a write just made or
 * changed that a rule refuses (an access rule's `check`, or an update's own scope, which a row must not leave).
 * The server runs it inside the write's transaction, before COMMIT, and rolls back when it answers any key.
 *
 * The filter is a rule's and trusted, and the rows may lie outside the caller's read scope by now: the whole
 * statement is compiled without row scopes. A row that does not exist is outside; so is one on which the
 * filter is unknown (SQL's null), as `where` would not select it:
 *
 *     select t.key from table as t where t.key in (…) and <filter>
 */
export function compileOutside(
  ctx: CompileContext,
  model: ModelSchema,
  keys: readonly unknown[],
  filter: Filter,
): Statement<unknown[]> {
  const plain = unscoped(ctx);
  const t = plain.aliases.next();
  const qb = plain.knex
    .from({ [t]: model.table })
    .select(`${t}.${model.key}`)
    .whereIn(`${t}.${model.key}`, plainBindings(plain, keyColumn(model), keys))
    .whereRaw('?', [compileFilter(plain, model, t, filter)]);
  return statementOf(qb, ({ rows }) => {
    const meeting = new Set(rows.map((r) => wireText(plain, keyColumn(model), r[model.key])));
    return keys.filter((k) => !meeting.has(String(k)));
  });
}

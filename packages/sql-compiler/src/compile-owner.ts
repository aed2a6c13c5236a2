import { ownerQuery, type Scope } from './compile-scope.js';
import type { CompileContext } from './field-expression.js';
import { statementOf, type Statement } from './statement.js';

/** Whether the owner of a scope exists (`/person/1/…` answers 404 when person 1 does not). */
export function compileOwner(ctx: CompileContext, scope: Scope): Statement<boolean> {
  return statementOf(ownerQuery(ctx, scope), ({ rows }) => rows.length > 0);
}

export type {
  DatabaseErrorKind,
  Dialect,
  DialectOptions,
  ErrorPlace,
  Executed,
  ForeignKey,
  KeyListType,
  LikeMode,
} from './dialect.js';
export { ValueOutOfRange } from './value-out-of-range.js';
export { dialectForUrl, dialects, mysql, postgres, sqlite } from './dialects/index.js';
export { connect, disconnect, type ConnectOptions, type Database } from './connect.js';
export { replicaUrls } from './replica-urls.js';
export { ReplicaSet, type ReplicaChange, type ReplicaPolicy, type ReplicaState } from './replica-set.js';
export { databaseUrlOptions, type DatabaseUrlOptions } from './database-url-options.js';
export { redactUrl } from './redact-url.js';
export { SqlCompiler } from './sql-compiler.js';
export type { Statement, RowsStatement } from './statement.js';
export type { ListAnswer, ListPlan, ListRequest } from './compile-list.js';
export type { Scope } from './compile-scope.js';
export type { RelatedRow } from './compile-related.js';
export type { LinkOwner, LinkTarget } from './compile-unlink.js';
export type { Selection } from './selection.js';
export type { ResourceRow } from './resource-row.js';
export { NO_RELATIONS, type Relations } from './row-linkage.js';
export { newRowEmptyRelations } from './new-row-linkage.js';
export { runStatement } from './run-statement.js';
export { runEach } from './run-each.js';
export { runList } from './run-list.js';
export { StatementError, driverError, errorKind } from './statement-error.js';
export { compileFilter } from './compile-filter.js';
export type { CompileContext } from './field-expression.js';
export type { RowAction, RowScopes } from './row-scopes.js';
export { likeToGlob } from './like-pattern.js';
export { textFormDigits, textFormOf, toTextForm } from './text-form.js';
export type { Row } from './row-decoder.js';
export { singleJoin } from './single-join.js';

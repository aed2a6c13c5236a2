export type { DatabaseErrorKind, Dialect, LikeMode } from './dialect.js';
export { dialectForUrl, dialects, mysql, postgres, sqlite } from './dialects/index.js';
export { connect, type Database } from './connect.js';
export { SqlCompiler } from './sql-compiler.js';
export { OWNER_COLUMN, type ListSql, type ScopeSql } from './compile-select.js';
export { compileFilter } from './compile-filter.js';
export type { CompileContext } from './field-expression.js';
export { likeToGlob } from './like-pattern.js';
export type { Row } from './row-decoder.js';

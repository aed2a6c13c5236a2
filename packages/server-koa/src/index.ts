export { createApi, type ApiMiddleware } from './create-api.js';
export { runPrimary, workersOption, type ClusterOptions } from './cluster.js';
export type { ApiOptions, ResponseHook } from './api-options.js';
export { Executor } from './executor/executor.js';
export { wrapJsonp } from './jsonp.js';
export type { CollectionHooks, HookContext, HookTable, OperationHooks } from './hooks.js';
export { ApiError } from '@colapi/query-ast';
export { databaseError } from './database-errors.js';
export { READ_FROM_HEADER } from './read-from.js';

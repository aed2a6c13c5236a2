import { ApiError } from '@colapi/query-ast';
import { driverError } from '@colapi/sql-compiler';
import type { Route } from '@colapi/wire-format';
import type { ApiOptions } from '../api-options.js';
import { bodyError } from '../body-error.js';
import { classifiedError, isPoolTimeout, poolBusy } from '../database-errors.js';

/**
 * The one place an error becomes what the client hears: an ApiError as it is; a refused body, a full pool
 * or a classified database error as its 4xx/503; a misconfiguration as a 500 naming the setting; anything
 * else a 500 whose cause goes to `onUnexpectedError` only.
 */
export function errorFunnel(options: ApiOptions): (error: unknown, route: Route) => Promise<ApiError> {
  const { database, registry } = options;
  return async (error, route) => {
    if (error instanceof ApiError) return error;
    const refused = bodyError(error);
    if (refused) return refused;
    if (isPoolTimeout(error)) return poolBusy();
    const classified = await classifiedError(database, registry, route, error);
    if (classified) return classified;
    const misconfigured = database.dialect.misconfiguration?.(driverError(error));
    if (misconfigured) {
      // The operator's log and the client both read what to change: no request can succeed until it is.
      options.onUnexpectedError?.(
        new Error(`the database is misconfigured for this server: ${misconfigured}`, { cause: error }),
      );
      return new ApiError(500, 'Internal Server Error', `the server is misconfigured: ${misconfigured}`);
    }
    options.onUnexpectedError?.(error);
    const internal = options.debug
      ? ` (debug: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})`
      : '';
    return new ApiError(500, 'Internal Server Error', `the server failed to answer this request${internal}`);
  };
}

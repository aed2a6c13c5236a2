import { redactUrl } from '@colapi/sql-compiler';
import type { Knex } from 'knex';

/**
 * The one line the conformance target prints when it cannot start: which database it could not reach or
 * open (password hidden) and the driver's reason, on one line whatever the driver's message looks like.
 */
export function startupMessage(error: unknown, url: string): string {
  const e = error as { message?: unknown; code?: unknown; errors?: unknown[] } | undefined;
  // Node answers a host with several addresses (localhost) that refuse all with an AggregateError and no message.
  const first = (Array.isArray(e?.errors) && e.errors.length ? e.errors[0] : e) as
    | { message?: unknown; code?: unknown }
    | undefined;
  const reason = String(first?.message || first?.code || error)
    .split('\n')[0]!
    .trim();
  const unreachable = /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|EAI_AGAIN|timeout acquiring|connect/i.test(reason);
  return `conformance target failed to start: ${unreachable ? 'cannot reach' : 'cannot open'} the database at ${redactUrl(url)}: ${reason}`;
}

/**
 * knex's logger for the command line: its connection warnings are dropped (the server answers them with 503,
 * and at start with the line above), any other warning is one line on standard error.
 */
export const quietKnexLog: Knex.Logger = {
  warn(message: unknown) {
    const text = String(message).split('\n')[0]!;
    if (!/^(Acquire connection error|Connection Error)/.test(text)) process.stderr.write(`knex: ${text}\n`);
  },
  error(message: unknown) {
    process.stderr.write(`knex: ${String(message).split('\n')[0]}\n`);
  },
  deprecate() {},
  debug() {},
};

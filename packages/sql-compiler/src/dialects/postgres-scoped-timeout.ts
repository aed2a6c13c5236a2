/**
 * statement_timeout behind a transaction-mode pooler (PgBouncer, RDS Proxy, Supavisor).
 *
 * Directly, the timeout is a startup parameter of each connection and costs nothing. A pooler refuses
 * unknown startup parameters (PgBouncer: "unsupported startup parameter: statement_timeout") or drops
 * them, and a session-level `SET` would stay on the server connection for whichever client gets it next.
 * So behind a pooler the setting lives exactly as long as the pooler lends a server connection, one
 * transaction:
 *
 * - a transaction's `BEGIN` becomes `BEGIN; SET LOCAL statement_timeout = N`, one simple query, no extra
 *   round trip;
 * - a statement outside a transaction runs in one of its own: `BEGIN; SET LOCAL …`, the statement, `COMMIT`,
 *   written together (node-postgres's pipeline mode) and answered in one round trip. PgBouncer keeps the
 *   three on one server connection, since the transaction is open from the first to the last, and releases
 *   it at the COMMIT's ReadyForQuery, after which this connection has nothing more in flight.
 *
 * The statement's caller hears after the COMMIT: a write outside a transaction is durable (or its failure
 * known, deferred constraints included) when the callback runs. A statement the timeout cancels aborts its
 * transaction, and the COMMIT then rolls it back without an error of its own.
 */

type Callback = (error: unknown, result?: unknown) => void;

/** The part of a node-postgres Client this uses. */
export interface PgClient {
  query(config: unknown, ...rest: unknown[]): unknown;
  /** 'I' idle, 'T' in a transaction, 'E' in a failed one; missing from older node-postgres. */
  getTransactionStatus?(): string | null;
  /** True when the client writes queries without waiting for earlier answers (its `pipeline` option). */
  readonly pipeline?: boolean;
}

// Leading comments are skipped so that `/* tag */ BEGIN` is recognised too.
const LEAD = String.raw`^\s*(?:(?:--[^\n]*\n|/\*[\s\S]*?\*/)\s*)*`;
const OPENS = new RegExp(`${LEAD}(?:begin|start\\s+transaction)\\b`, 'i');
const CLOSES = new RegExp(`${LEAD}(?:commit|end|rollback|abort|prepare\\s+transaction)\\b(?!\\s+to\\b)`, 'i');
/**
 * Statements that end a transaction, or that PostgreSQL refuses inside one (CREATE DATABASE, VACUUM,
 * CREATE INDEX CONCURRENTLY…): sent as they are, outside any transaction, and so without the timeout.
 */
const AS_IS = new RegExp(
  `${LEAD}(?:commit|end|rollback|abort|savepoint|release|prepare\\s+transaction|set\\s+transaction|` +
    String.raw`(?:create|drop)\s+(?:database|tablespace|subscription)|alter\s+subscription|alter\s+system|vacuum|` +
    String.raw`(?:create|drop)\s+index\s+concurrently|reindex\b[^;]*\bconcurrently|cluster\s*;?\s*$|alter\s+database\b[^;]*\btablespace)\b`,
  'i',
);

/** Installs the scoping on one client; `ms` is a positive whole number of milliseconds. */
export function scopeStatementTimeout(client: PgClient, ms: number): void {
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw new Error(`statementTimeout must be a positive whole number of milliseconds, not ${ms}`);
  const setting = `SET LOCAL statement_timeout = ${ms}`;
  const query = client.query.bind(client);
  // Where the driver cannot tell the server's transaction status, the texts it was sent tell it.
  let opened = false;
  const inTransaction = () => {
    const status = client.getTransactionStatus?.();
    return status === undefined ? opened : status === 'T' || status === 'E';
  };

  client.query = (config, ...rest) => {
    // A cursor or stream (a Submittable) goes as it is: its portal spans round trips, so a pipelined client
    // refuses it with its own error (and an older, unpipelined one runs it without the timeout).
    const text = typeof config === 'string' ? config : (config as { text?: unknown; submit?: unknown } | null)?.text;
    if (typeof text !== 'string' || typeof (config as { submit?: unknown }).submit === 'function')
      return query(config, ...rest);
    if (OPENS.test(text)) {
      opened = true;
      const scoped = `${text.replace(/;\s*$/, '')}; ${setting}`;
      return query(typeof config === 'string' ? scoped : { ...(config as object), text: scoped }, ...rest);
    }
    if (CLOSES.test(text)) opened = false;
    if (inTransaction() || AS_IS.test(text)) return query(config, ...rest);
    return ownTransaction(query, client.pipeline === true, config, rest, `BEGIN; ${setting}`);
  };
}

/** Runs one statement in a transaction of its own; answers as node-postgres would (callback, or a promise). */
function ownTransaction(
  query: PgClient['query'],
  pipelined: boolean,
  config: unknown,
  rest: unknown[],
  begin: string,
): unknown {
  const last = rest[rest.length - 1];
  let callback: Callback;
  let promise: Promise<unknown> | undefined;
  if (typeof last === 'function') {
    callback = last as Callback;
    rest = rest.slice(0, -1);
  } else {
    promise = new Promise((resolve, reject) => {
      callback = (error, result) => (error ? reject(error) : resolve(result));
    });
  }
  // The first failure is the cause: a scope that could not open fails the statement after it too.
  let failure: unknown;
  let answer: unknown;
  const note = (error: unknown) => {
    if (error && failure === undefined) failure = error;
  };
  const opening = (then?: () => void) =>
    query(begin, (error: unknown) => {
      note(error);
      then?.();
    });
  const statement = (then?: () => void) =>
    query(config, ...rest, (error: unknown, result: unknown) => {
      note(error);
      answer = result;
      then?.();
    });
  const closing = () =>
    query('COMMIT', (error: unknown) => {
      note(error);
      if (failure === undefined) callback!(null, answer);
      else callback!(failure);
    });
  // Without pipelining the driver would hold the later queries in its queue anyway (and warn about it).
  if (pipelined) {
    opening();
    statement();
    closing();
  } else {
    opening(() => statement(closing));
  }
  return promise;
}

import type { Database, ReplicaState } from '@colapi/sql-compiler';

/** What `GET /ready` answers: each check `ok` or why not, and the replicas' states where there are replicas. */
export interface Readiness {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, string>>;
  /** The names of the checks that failed, in order. */
  readonly failed: readonly string[];
  readonly replicas?: readonly ReplicaState[];
  /** Under a cluster primary: each worker's own readiness. */
  readonly workers?: readonly (Readiness & { readonly pid: number })[];
}

export interface ReadinessOptions {
  /** The primary to ask `select 1`, or a function answering the one serving now (undefined: none yet). */
  readonly database: Database | (() => Database | undefined);
  /**
   * Settles once the catalogue or registry is loaded (createApi's `ready`), or tells whether it is; default
   * loaded already.
   */
  readonly loaded?: Promise<unknown> | (() => boolean);
  /** Milliseconds the primary has to answer; default 1000. */
  readonly timeout?: number;
}

/** Builds a readiness report from named checks: ready when every one is `ok`. */
export function readinessOf(
  checks: Readonly<Record<string, string>>,
  extra: Pick<Readiness, 'replicas' | 'workers'> = {},
): Readiness {
  const failed = Object.keys(checks).filter((name) => checks[name] !== 'ok');
  return { ready: failed.length === 0, checks, failed, ...extra };
}

/**
 * The checks of one process: the catalogue is loaded, and the primary answers a trivial statement within
 * `timeout`. (Draining is the admin server's own check.) Replicas are reported, not required: reads fall back
 * to the primary when none serves.
 */
export function databaseReadiness(options: ReadinessOptions): () => Promise<Readiness> {
  const timeout = options.timeout ?? 1000;
  if (!(Number.isInteger(timeout) && timeout > 0))
    throw new Error(`the readiness timeout must be a positive whole number of milliseconds, not ${timeout}`);
  let settled = options.loaded === undefined;
  if (options.loaded instanceof Promise) void options.loaded.then(() => (settled = true));
  const asked = options.loaded;
  const isLoaded = typeof asked === 'function' ? asked : () => settled;
  const current = typeof options.database === 'function' ? options.database : () => options.database as Database;
  return async () => {
    const database = current();
    const primary = database ? await answers(database, timeout) : 'no database open';
    const replicas = database?.replicas?.state();
    return readinessOf(
      { catalogue: isLoaded() && database ? 'ok' : 'not loaded yet', primary },
      replicas ? { replicas } : {},
    );
  };
}

/** `ok`, or why the primary did not answer `select 1` in time. */
async function answers(database: Database, timeout: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeout} ms`), timeout);
  });
  const asked = database.knex.raw('select 1').then(
    () => 'ok',
    (error: unknown) => `failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`,
  );
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}

import cluster, { type Worker } from 'node:cluster';

/** Why `text` is not a number of workers (a whole number from 1 to 64), or undefined when it is one. */
export function workersProblem(text: string): string | undefined {
  return /^\d{1,2}$/.test(text) && Number(text) >= 1 && Number(text) <= 64
    ? undefined
    : `a whole number from 1 to 64; got "${text}"`;
}

/** `--workers N` or `--workers=N` from the command line (default 1). */
export function workersOption(argv: readonly string[]): number {
  const at = argv.findIndex((a) => a === '--workers' || a.startsWith('--workers='));
  if (at < 0) return 1;
  const text = argv[at]!.includes('=') ? argv[at]!.split('=')[1] : argv[at + 1];
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new Error(`--workers needs a whole number from 1 to 64, not "${text}"`);
  return n;
}

export interface ClusterOptions {
  readonly workers: number;
  /** Told once, when every worker accepts requests, with the address the first of them listens on. */
  readonly onListening: (address: { readonly address: string; readonly port: number }) => void;
  /** Milliseconds the workers get to stop after SIGTERM or SIGINT before they are killed. */
  readonly stopWithin?: number;
  /** Told as the primary begins to stop, before the workers are (e.g. to turn its admin listener's /ready to 503). */
  readonly onStop?: (signal: 'SIGTERM' | 'SIGINT') => void;
  /** SIGHUP to the primary is sent on to every worker (each reloads on its own); default false. */
  readonly forwardReload?: boolean;
  /** Where a worker's death is told, one line at a time; default standard error. */
  readonly report?: (line: string) => void;
}

/**
 * The primary of a node:cluster: forks the workers (the same script, with `cluster.isPrimary` false, each
 * serving as one process would), which share the listening port (the primary hands connections to them in
 * turn), and reports once all of them listen. A worker that dies while serving is reported and replaced.
 * SIGTERM or SIGINT is sent on to every worker (SIGTERM drains, SIGINT does not), killing stragglers after
 * `stopWithin`; a second signal kills them at once. The primary exits 0 once every worker has stopped by
 * itself, else 1.
 */
export function runPrimary(options: ClusterOptions): void {
  const report = options.report ?? ((line: string) => void process.stderr.write(`${line}\n`));
  let listening = 0;
  let stopping = false;
  let status = 0;
  const started = new Set<Worker>();
  let first: { address: string; port: number } | undefined;
  const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  cluster.on('listening', (worker, address) => {
    if (started.has(worker)) return;
    started.add(worker);
    first ??= { address: address.address, port: address.port };
    if (++listening === options.workers) options.onListening(first);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (code !== 0) status = 1;
      if (alive().length === 0) process.exit(status);
      return;
    }
    if (!started.has(worker)) {
      // A worker that never listened would fail again: give up rather than fork forever.
      report(`a worker failed to start (${signal ?? code}); stopping`);
      stop('SIGTERM', 1);
      return;
    }
    report(`worker ${worker.process.pid} died (${signal ?? `exit code ${code}`}); starting another`);
    cluster.fork();
  });
  const stop = (signal: 'SIGTERM' | 'SIGINT', exitStatus = 0) => {
    if (stopping) {
      // A second signal means now.
      for (const w of alive()) w.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    status = exitStatus;
    options.onStop?.(signal);
    setTimeout(() => {
      for (const w of alive()) w.process.kill('SIGKILL');
      process.exit(1);
    }, options.stopWithin ?? 4000).unref();
    const workers = alive();
    if (workers.length === 0) process.exit(status);
    for (const w of workers) w.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (options.forwardReload)
    process.on('SIGHUP', () => {
      for (const w of alive()) w.process.kill('SIGHUP');
    });
  for (let i = 0; i < options.workers; i++) cluster.fork();
}

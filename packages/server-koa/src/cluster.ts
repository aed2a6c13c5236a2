import cluster, { type Worker } from 'node:cluster';

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
  /** Milliseconds the workers get to stop on SIGTERM before they are killed. */
  readonly stopWithin?: number;
}

/**
 * The primary of a node:cluster: forks the workers (the same script, with `cluster.isPrimary` false, each
 * serving as one process would), which share the listening port (the primary hands connections to them in
 * turn), and reports once all of them listen. A worker that dies while serving is
 * replaced; SIGTERM or SIGINT stops them all, killing stragglers after `stopWithin`.
 */
export function runPrimary(options: ClusterOptions): void {
  let listening = 0;
  let stopping = false;
  const started = new Set<Worker>();
  let first: { address: string; port: number } | undefined;
  cluster.on('listening', (worker, address) => {
    if (started.has(worker)) return;
    started.add(worker);
    first ??= { address: address.address, port: address.port };
    if (++listening === options.workers) options.onListening(first);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    if (!started.has(worker)) {
      // A worker that never listened would fail again: give up rather than fork forever.
      process.stderr.write(`a worker failed to start (${signal ?? code}); stopping\n`);
      stop(1);
      return;
    }
    process.stderr.write(`worker ${worker.process.pid} died (${signal ?? code}); starting another\n`);
    cluster.fork();
  });
  const stop = (status = 0) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
      process.exit(status);
    }, options.stopWithin ?? 4000).unref();
    const alive = Object.values(cluster.workers ?? {});
    if (alive.length === 0) process.exit(status);
    for (const w of alive) w?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => stop());
  process.on('SIGINT', () => stop());
  for (let i = 0; i < options.workers; i++) cluster.fork();
}

import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type ServerProcess } from './processes.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const TARGET_PORT = 18081;
export const BASELINE_PORT = 18082;
const TSX = ['--conditions=development', '--import', 'tsx'];

export interface TargetStart {
  readonly url: string;
  readonly workers?: number;
  /** Connections of the target's pool (PostgreSQL, MariaDB); the dialect's default (10) when absent. */
  readonly pool?: number;
  /** Profile the target with node --cpu-prof into this folder. */
  readonly cpuProf?: string;
  /** More options of node, before the script (`--target-node-options`). */
  readonly nodeOptions?: readonly string[];
  /** Another server script with the target's interface (the growth variant); default the conformance target. */
  readonly script?: string;
  /** The checkout whose compiled target runs (`--against`: an earlier build); default this one. */
  readonly root?: string;
  /** Where it listens and what it is called; default the target's port and `target`. */
  readonly port?: number;
  readonly name?: string;
  readonly env?: Record<string, string>;
  readonly log: (line: string) => void;
}

/**
 * The conformance target, compiled (`pnpm bench` builds it through turbo first): `bench/dist/target/serve.js`
 * starts test-fixtures' startConformanceTarget as test-fixtures/src/serve.ts does, with a pool of `pool`
 * connections (serve.ts has no setting for it). Run by node itself, so that --cpu-prof lands on the server;
 * the growth variant is a TypeScript script of the bench, run by tsx.
 */
export function startTarget(o: TargetStart): Promise<ServerProcess> {
  const env = {
    DATABASE_URL: o.url,
    PORT: String(o.port ?? TARGET_PORT),
    API_FORMAT: 'jsonapi',
    POOL_SIZE: o.pool ? String(o.pool) : '',
    ...o.env,
  };
  const workerArgs = o.workers && o.workers > 1 ? ['--workers', String(o.workers)] : [];
  if (o.cpuProf) mkdirSync(o.cpuProf, { recursive: true });
  const prof = o.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${resolve(o.cpuProf)}`] : [];
  const root = o.root ?? ROOT;
  const script = o.script ? [...TSX, o.script] : [join(root, 'bench/dist/target/serve.js')];
  return startServer({
    name: o.name ?? 'target',
    command: process.execPath,
    args: [...(o.nodeOptions ?? []), ...prof, ...script, ...workerArgs],
    env,
    cwd: root,
    port: o.port ?? TARGET_PORT,
    log: o.log,
  });
}

/** The bench's own hand-written baseline, compiled like the target (`bench/dist/baseline`); the baseline on SQLite. */
export function startBaseline(url: string, pool: number, log: (line: string) => void): Promise<ServerProcess> {
  return startServer({
    name: 'baseline',
    command: process.execPath,
    args: [join(ROOT, 'bench/dist/baseline/main.js')],
    env: { DATABASE_URL: url, PORT: String(BASELINE_PORT), POOL_SIZE: String(pool) },
    cwd: ROOT,
    port: BASELINE_PORT,
    log,
  });
}

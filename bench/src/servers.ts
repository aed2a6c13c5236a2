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
  /** Profile the target with node --cpu-prof into this folder. */
  readonly cpuProf?: string;
  /** Another server script with the target's interface (the growth variant); default the conformance target. */
  readonly script?: string;
  readonly env?: Record<string, string>;
  readonly log: (line: string) => void;
}

/**
 * The conformance target as SCHEMA.md starts it, `pnpm --silent conformance:serve` (its compiled JavaScript,
 * built by `pnpm bench` first). A profiled one runs the same script under node directly, so that --cpu-prof
 * lands on the server and not on pnpm; the growth variant is a TypeScript script of the bench, run by tsx.
 */
export function startTarget(o: TargetStart): Promise<ServerProcess> {
  const env = { DATABASE_URL: o.url, PORT: String(TARGET_PORT), API_FORMAT: 'jsonapi', ...o.env };
  const workerArgs = o.workers && o.workers > 1 ? ['--workers', String(o.workers)] : [];
  if (o.cpuProf || o.script) {
    const prof = o.cpuProf ? (mkdirSync(o.cpuProf, { recursive: true }), ['--cpu-prof', `--cpu-prof-dir=${resolve(o.cpuProf)}`]) : [];
    const script = o.script ? [...TSX, o.script] : ['test-fixtures/dist/serve.js'];
    return startServer({ name: 'target', command: process.execPath, args: [...prof, ...script, ...workerArgs], env, cwd: ROOT, port: TARGET_PORT, log: o.log });
  }
  return startServer({
    name: 'target',
    command: 'pnpm',
    args: ['--silent', 'conformance:serve', ...workerArgs],
    env,
    cwd: ROOT,
    port: TARGET_PORT,
    wrapper: true,
    log: o.log,
  });
}

/** The hand-written baseline, compiled like the target (`bench/dist/baseline`, built by `pnpm bench`). */
export function startBaseline(url: string, log: (line: string) => void): Promise<ServerProcess> {
  return startServer({
    name: 'baseline',
    command: process.execPath,
    args: [join(ROOT, 'bench/dist/baseline/main.js')],
    env: { DATABASE_URL: url, PORT: String(BASELINE_PORT) },
    cwd: ROOT,
    port: BASELINE_PORT,
    log,
  });
}

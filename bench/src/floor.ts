import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startServer, type ServerProcess } from './processes.js';

/**
 * The reference floor server (`../shared/bench/floor-server.mjs` beside the checkout): Koa, the raw driver,
 * one hand-tuned statement per request. It is a measuring instrument outside the project: run from where it
 * is, never copied in. PostgreSQL and MariaDB/MySQL only.
 */
export function floorDir(root: string): string {
  return process.env.FLOOR_DIR || resolve(root, '../shared/bench');
}

/** Checks the floor server is there and installs its dependencies (its own package-lock) when they are missing. */
export function ensureFloor(root: string, log: (line: string) => void): string {
  const dir = floorDir(root);
  if (!existsSync(join(dir, 'floor-server.mjs'))) {
    throw new Error(
      `the floor server is missing: no ${join(dir, 'floor-server.mjs')}. pnpm bench measures the target against ../shared/bench/floor-server.mjs beside the checkout (or FLOOR_DIR); on SQLite, or with --baseline own, it uses bench/src/baseline instead`,
    );
  }
  const installed = ['koa', '@koa/router', 'pg', 'mysql2'].every((p) =>
    existsSync(join(dir, 'node_modules', p, 'package.json')),
  );
  if (!installed) {
    log(`installing the floor server's dependencies: npm ci in ${dir}`);
    try {
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], {
        cwd: dir,
        // Native modules build against the installed headers, not a download (the machine reaches no other host).
        env: { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir || '/usr' },
        stdio: ['ignore', 2, 2],
      });
    } catch (error) {
      throw new Error(`npm ci in ${dir} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return dir;
}

export function startFloor(
  dir: string,
  url: string,
  port: number,
  pool: number,
  log: (line: string) => void,
): Promise<ServerProcess> {
  return startServer({
    name: 'floor',
    command: process.execPath,
    args: ['floor-server.mjs', '--port', String(port), '--db', url, '--pool', String(pool)],
    env: {},
    cwd: dir,
    port,
    log,
  });
}

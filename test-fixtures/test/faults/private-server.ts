import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@colapi/sql-compiler';

/**
 * A database server owned by one test: its own data directory, port and socket, so that it can be restarted
 * while other engineers' suites use the shared servers on 5432 and 3306. PostgreSQL runs as the postgres user
 * (initdb and pg_ctl refuse root), MariaDB as root with `--user=root`. Needs root, as on CI.
 */
export interface PrivateServer {
  readonly kind: 'postgres' | 'mysql';
  /** URL of its `test` database. */
  readonly url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  remove(): Promise<void>;
}

export const canRunPrivateServers = (): boolean => process.getuid?.() === 0;

/** A port nothing listens on, for a server to take (or for a client to find closed). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function run(command: string, args: string[]): void {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed: ${r.stderr || r.stdout || r.error?.message}`);
}

/** Waits until the server accepts a query, within `ms`. */
async function reachable(url: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const db = connect(url, { pool: { min: 0, max: 1 }, acquireConnectionTimeout: 2000 });
    try {
      await db.knex.raw('select 1');
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await db.knex.destroy();
    }
  }
}

export async function privatePostgres(): Promise<PrivateServer> {
  const dir = mkdtempSync(join(tmpdir(), 'colapi-pg-'));
  chownSync(dir, Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim()), -1);
  const bin = join('/usr/lib/postgresql', readdirSync('/usr/lib/postgresql').sort().at(-1)!, 'bin');
  const port = await freePort();
  const data = join(dir, 'data');
  const pgCtl = (...args: string[]) =>
    run('runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), '-D', data, ...args]);
  run('runuser', ['-u', 'postgres', '--', join(bin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'root', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const server: PrivateServer = {
    kind: 'postgres',
    url: `postgres://root@127.0.0.1:${port}/test`,
    async start() {
      pgCtl('-l', join(dir, 'log'), '-o', options, '-w', '-t', '30', 'start');
      await reachable(`postgres://root@127.0.0.1:${port}/postgres`);
    },
    async stop() {
      pgCtl('-m', 'fast', '-w', 'stop');
    },
    async remove() {
      spawnSync('runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  const admin = connect(`postgres://root@127.0.0.1:${port}/postgres`, { pool: { min: 0, max: 1 } });
  await admin.knex.raw('create database test').finally(() => admin.knex.destroy());
  return server;
}

export async function privateMariadb(): Promise<PrivateServer> {
  const dir = mkdtempSync(join(tmpdir(), 'colapi-mdb-'));
  const port = await freePort();
  const data = join(dir, 'data');
  run('mariadb-install-db', [
    '--no-defaults',
    `--datadir=${data}`,
    '--user=root',
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
  ]);
  let child: ChildProcess | undefined;
  const server: PrivateServer = {
    kind: 'mysql',
    url: `mysql://root@127.0.0.1:${port}/test`,
    async start() {
      child = spawn(
        'mariadbd',
        [
          '--no-defaults',
          `--datadir=${data}`,
          `--port=${port}`,
          `--socket=${join(dir, 'sock')}`,
          '--bind-address=127.0.0.1',
          '--user=root',
          '--skip-log-bin',
          '--innodb-buffer-pool-size=32M',
          `--pid-file=${join(dir, 'pid')}`,
          `--log-error=${join(dir, 'err')}`,
        ],
        { stdio: 'ignore' },
      );
      await reachable(`mysql://root@127.0.0.1:${port}/mysql`);
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
    async remove() {
      if (child && child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  const admin = connect(`mysql://root@127.0.0.1:${port}/mysql`, { pool: { min: 0, max: 1 } });
  await admin.knex.raw('create database test').finally(() => admin.knex.destroy());
  return server;
}

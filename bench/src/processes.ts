import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';

export interface ServerProcess {
  readonly name: string;
  readonly origin: string;
  /** The processes that serve requests (the node processes under a pnpm wrapper, cluster workers too). */
  serverPids(): number[];
  stop(): Promise<void>;
}

/** Children of a process: each thread lists those it forked, and libuv forks from other threads than the main one. */
function children(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * The file name of the program a process runs. Not its `comm`: Node 24 names its main thread `MainThread`,
 * so that a process's comm no longer says it is node.
 */
function command(pid: number): string {
  try {
    return basename(readlinkSync(`/proc/${pid}/exe`));
  } catch {
    return '';
  }
}

/** Every descendant of a process, depth first. */
function descendants(pid: number): number[] {
  const out: number[] = [];
  for (const c of children(pid)) out.push(c, ...descendants(c));
  return out;
}

/** Resident memory of a process in bytes (VmRSS of /proc/<pid>/status), 0 when it is gone. */
export function residentBytes(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ): 100 on every Linux this bench runs on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time the processes have used so far, user and system, in milliseconds (/proc/<pid>/stat); a process
 * that is gone counts 0. Read before and after a run, it tells what the run cost each process.
 */
export function cpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // The command name in parentheses may hold spaces: fields are counted after its closing parenthesis.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      /* gone */
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** Programs that are a database server: PostgreSQL's processes, MariaDB's or MySQL's. */
const DATABASE_PROGRAMS: ReadonlySet<string> = new Set(['postgres', 'mariadbd', 'mysqld']);

/**
 * Every process of the database servers on this machine (PostgreSQL's backends, its background writers,
 * MariaDB): what the statements of a run cost the database. None for SQLite, which runs in the server.
 */
export function databasePids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && DATABASE_PROGRAMS.has(command(pid))) pids.push(pid);
  }
  return pids;
}

export interface StartOptions {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly port: number;
  /** The spawned process only starts the server (pnpm): measure its descendants instead. */
  readonly wrapper?: boolean;
  readonly log: (line: string) => void;
}

/**
 * Starts a server in a process group of its own and waits for its `listening on http://127.0.0.1:<port>`
 * line (at most 60 s). Stopping sends SIGTERM to the group, then SIGKILL after 6 s.
 */
export async function startServer(o: StartOptions): Promise<ServerProcess> {
  const child: ChildProcess = spawn(o.command, [...o.args], {
    cwd: o.cwd,
    env: { ...process.env, ...o.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const origin = `http://127.0.0.1:${o.port}`;
  const expected = `listening on ${origin}`;
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${o.name} did not start within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.split('\n').some((l) => l.trim() === expected)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${o.name} exited with ${code} before listening:\n${output}`));
    });
  });
  // Keep draining the pipes so a chatty server never blocks on a full one.
  child.stdout!.removeAllListeners('data');
  child.stdout!.on('data', () => undefined);
  child.stderr!.on('data', (c: Buffer) => o.log(`[${o.name}] ${c.toString().trimEnd()}`));
  const pid = child.pid!;
  return {
    name: o.name,
    origin,
    serverPids() {
      const all = o.wrapper ? descendants(pid) : [pid, ...descendants(pid)];
      return all.filter((p) => command(p) === 'node' || command(p).startsWith('node'));
    },
    async stop() {
      if (child.exitCode !== null) return;
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        return;
      }
      const killed = setTimeout(() => {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 6000);
      await exited;
      clearTimeout(killed);
    },
  };
}

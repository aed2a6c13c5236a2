import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, where `pnpm colapi` runs. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The command running as a process, and what it wrote so far. */
export interface Run {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  readonly exited: Promise<number | null>;
}

/** Runs the command as `pnpm colapi` does: the bin's source through tsx, from the repository root. */
export function colapi(args: string[], env: Record<string, string | undefined> = {}): Run {
  const child = spawn(
    process.execPath,
    ['--conditions=development', '--import', 'tsx', 'packages/cli/src/bin.ts', ...args],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: undefined, ...env } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const run: Run = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
  };
  child.stdout!.on('data', (d) => (run.stdout += String(d)));
  child.stderr!.on('data', (d) => (run.stderr += String(d)));
  return run;
}

/** Waits for the `n`th line of standard output matching a pattern. */
export async function line(run: Run, pattern: RegExp, n = 1, ms = 30_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = run.stdout
      .split('\n')
      .map((l) => pattern.exec(l))
      .filter((m): m is RegExpExecArray => m !== null);
    if (found.length >= n) return found[n - 1]!;
    if (Date.now() > deadline || run.child.exitCode !== null)
      throw new Error(`no ${pattern} (#${n}) in output:\n${run.stdout}\n${run.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Stops a `colapi` process still running (SIGTERM) and waits for its exit. */
export async function stop(run: Run | undefined): Promise<void> {
  if (!run || run.child.exitCode !== null) return;
  run.child.kill('SIGTERM');
  await run.exited;
}

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The SQLite extension that gives better-sqlite3 connections a statement timeout (native/statement-timeout.c):
 * a watchdog thread per connection calls sqlite3_interrupt() when a statement runs past its limit. It is
 * compiled with the machine's C compiler the first time a connection asks for a timeout, against the
 * SQLite headers better-sqlite3 ships, and cached on disk under a hash of its inputs.
 *
 * Environment: `CC` names the compiler (default `cc`); `COLAPI_SQLITE_EXTENSION_DIR` the cache directory
 * (default: this package's `native/build/`, or the system's temporary directory when that is not writable).
 */

/** The function that sets a connection's limit, and the extension's entry point. */
export const TIMEOUT_FUNCTION = 'colapi_statement_timeout';
export const ENTRY_POINT = 'colapi_statement_timeout_init';

const NATIVE = fileURLToPath(new URL('../../native/', import.meta.url));
const SOURCE = join(NATIVE, 'statement-timeout.c');
const built = new Map<string, string>();

/** The directory of better-sqlite3's SQLite headers, resolved as this package resolves the driver. */
function sqliteHeaders(): string {
  const main = createRequire(import.meta.url).resolve('better-sqlite3');
  return join(dirname(main), '..', 'deps', 'sqlite3');
}

function writable(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function cacheRoot(): string {
  const chosen = process.env.COLAPI_SQLITE_EXTENSION_DIR;
  if (chosen) return chosen;
  const own = join(NATIVE, 'build');
  return writable(own) ? own : join(tmpdir(), 'colapi-sqlite-extension');
}

function failure(reason: string): Error {
  return new Error(
    `statementTimeout on SQLite needs a C compiler to build its interrupt extension: ${reason}; ` +
      'install one (cc, or set CC), or leave statementTimeout out',
  );
}

/**
 * The path of the compiled extension, building it on first use. Throws, naming what is missing, when it
 * cannot be built: a timeout that silently did nothing would be worse than none.
 */
export function interruptExtension(): string {
  if (process.platform === 'win32') {
    throw new Error(
      'statementTimeout on SQLite is not supported on Windows (its interrupt extension uses POSIX threads); leave statementTimeout out',
    );
  }
  const root = cacheRoot();
  const memo = built.get(root);
  if (memo) return memo;
  let headers: string;
  let source: Buffer;
  let header: Buffer;
  try {
    headers = sqliteHeaders();
    source = readFileSync(SOURCE);
    header = Buffer.concat([readFileSync(join(headers, 'sqlite3ext.h')), readFileSync(join(headers, 'sqlite3.h'))]);
  } catch (error) {
    throw failure(`its source or SQLite's headers cannot be read (${(error as Error).message})`);
  }
  const hash = createHash('sha256')
    .update(source)
    .update(header)
    .update(`${process.platform}-${process.arch}`)
    .digest('hex');
  const dir = join(root, hash.slice(0, 16));
  const out = join(dir, process.platform === 'darwin' ? 'statement-timeout.dylib' : 'statement-timeout.so');
  if (!existsSync(out)) compile(headers, dir, out);
  built.set(root, out);
  return out;
}

function compile(headers: string, dir: string, out: string): void {
  const [cc, ...ccArgs] = (process.env.CC || 'cc').trim().split(/\s+/);
  // A name of its own per process: concurrent processes (mocha, cluster workers) each build, and the
  // rename puts one complete file in place whichever finishes last.
  const partial = `${out}.${process.pid}.${Date.now()}.tmp`;
  const link = process.platform === 'darwin' ? ['-dynamiclib'] : ['-shared', '-fPIC'];
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw failure(
      `its cache directory ${dir} cannot be made (${(error as Error).message}); set COLAPI_SQLITE_EXTENSION_DIR`,
    );
  }
  try {
    execFileSync(cc!, [...ccArgs, '-O2', ...link, `-I${headers}`, '-o', partial, SOURCE, '-lpthread'], {
      stdio: 'pipe',
    });
  } catch (error) {
    rmSync(partial, { force: true });
    const e = error as NodeJS.ErrnoException & { stderr?: Buffer };
    if (e.code === 'ENOENT') throw failure(`\`${cc}\` was not found`);
    const stderr = e.stderr?.toString().trim();
    throw failure(`\`${cc}\` failed (${stderr ? stderr.split('\n').slice(0, 5).join(' | ') : e.message})`);
  }
  renameSync(partial, out);
}

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Sql } from './each-dialect.js';

/** The test file that called `sql()`: the first frame of the stack outside test/support. */
function callerFile(): string {
  for (const line of new Error().stack!.split('\n')) {
    const match = /\((file:\/\/[^)]+?\.test\.ts|\/[^)]+?\.test\.ts):\d+:\d+\)/.exec(line);
    if (match) return match[1]!.startsWith('file:') ? fileURLToPath(match[1]!) : match[1]!;
  }
  throw new Error('no test file on the stack');
}

/**
 * `PIN_SQL=update`: writes the statement's actual text and bindings over the expected ones in the calling
 * test file, as snapshot tools do, for a change that moves many pinned texts at once. The rewrite is for
 * a person to read in the diff; without the variable every text is asserted.
 */
export function repin(wanted: Sql, actual: Sql): void {
  if (wanted.sql === actual.sql && JSON.stringify(wanted.bindings) === JSON.stringify(actual.bindings)) return;
  const file = callerFile();
  const text = readFileSync(file, 'utf8');
  // The text as it stands in the file: inside '…', "…" or `…`, with that quote and backslashes escaped.
  const literal = (sql: string, quote: string) => sql.replaceAll('\\', '\\\\').replaceAll(quote, `\\${quote}`);
  const found = ["'", '"', '`']
    .map((quote) => ({ quote, at: text.indexOf(`${quote}${literal(wanted.sql, quote)}${quote}`) }))
    .find((c) => c.at >= 0);
  if (!found) throw new Error(`cannot find the pinned text in ${file}: ${wanted.sql}`);
  const at = found.at + 1;
  const escaped = literal(actual.sql, found.quote);
  const oldLength = literal(wanted.sql, found.quote).length;
  const rest = text.slice(at + oldLength);
  const bindings = /bindings: \[[^\]]*\]/.exec(rest);
  if (!bindings || bindings.index > 20) throw new Error(`no bindings right after the pinned text in ${file}`);
  const tail = `${rest.slice(0, bindings.index)}bindings: ${JSON.stringify(actual.bindings)}${rest.slice(bindings.index + bindings[0].length)}`;
  writeFileSync(file, text.slice(0, at) + escaped + tail);
}

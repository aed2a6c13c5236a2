import type { CatalogueConfig } from '@colapi/catalogue';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, validateConfig } from './validate-config.js';

/** The file read when `--config` is not given, in the working directory; its absence means no configuration. */
export const DEFAULT_CONFIG_FILE = 'colapi.config.json';

/**
 * Reads and checks a configuration file: the one named (which must exist), else `colapi.config.json` of the
 * working directory when there is one, else an empty configuration. Errors name the file, and the line and
 * column of a JSON syntax error.
 */
export function loadConfig(file: string | undefined, cwd = process.cwd()): { config: CatalogueConfig; file?: string } {
  const path = resolve(cwd, file ?? DEFAULT_CONFIG_FILE);
  if (file === undefined && !existsSync(path)) return { config: {} };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file ?? DEFAULT_CONFIG_FILE}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const source = file ?? DEFAULT_CONFIG_FILE;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${source}: not valid JSON: ${jsonErrorPlace(text, (error as Error).message)}`);
  }
  return { config: validateConfig(value, source), file: path };
}

/** V8 names the offset of a syntax error; a person wants its line and column. */
function jsonErrorPlace(text: string, message: string): string {
  const at = /at position (\d+)/.exec(message);
  if (!at) return message;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${message.replace(/ in JSON at position \d+.*$/, '').replace(/,? ".*" is not valid JSON$/, '')} (line ${line}, column ${column})`;
}

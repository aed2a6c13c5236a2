import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { jsonErrorOffset } from './json-error-offset.js';
import { ConfigError, validateConfig, type ColapiConfig } from './validate-config.js';

/** The file read when `--config` is not given, in the working directory; its absence means no configuration. */
export const DEFAULT_CONFIG_FILE = 'colapi.config.json';

/**
 * Reads and checks a configuration file: the one named (which must exist), else `colapi.config.json` of the
 * working directory when there is one, else an empty configuration. Errors name the file, and the line and
 * column of a JSON syntax error.
 */
export function loadConfig(file: string | undefined, cwd = process.cwd()): { config: ColapiConfig; file?: string } {
  const path = resolve(cwd, file ?? DEFAULT_CONFIG_FILE);
  if (file === undefined && !existsSync(path)) return { config: {} };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `${file ?? DEFAULT_CONFIG_FILE}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
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

/** V8 names the offset of some syntax errors only; a person wants the line and column of every one. */
function jsonErrorPlace(text: string, message: string): string {
  const offset = jsonErrorOffset(text);
  if (offset === undefined) return message;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  const found = offset < text.length ? `unexpected ${JSON.stringify(text[offset])}` : 'unexpected end of text';
  return `${found} at line ${line}, column ${column}`;
}

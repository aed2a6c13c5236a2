import type { WireFormat } from '@colapi/wire-format';
import { createRequire } from 'node:module';

const PREFIX = '@colapi/format-';

/**
 * The wire formats the conformance target can serve, by API_FORMAT name: every package @colapi/format-<name>
 * this package depends on. A new format is one more dependency, and no code here.
 */
export const FORMAT_NAMES: readonly string[] = Object.keys(
  (createRequire(import.meta.url)('../package.json') as { dependencies: Record<string, string> }).dependencies,
)
  .filter((name) => name.startsWith(PREFIX))
  .map((name) => name.slice(PREFIX.length))
  .sort();

/**
 * Loads a package the way this module itself was loaded. The suites run as CommonJS under tsx, a server as
 * ES modules; loaded the other way, the format would bring a second copy of @colapi/query-ast beside the
 * server's, and the server's `instanceof ApiError` would miss the format's errors.
 */
async function load(id: string): Promise<unknown> {
  return typeof require === 'function' ? require(id) : import(id);
}

/** A format by its name, built by `createWireFormat()`, the factory every format package exports. */
export async function formatByName(name: string): Promise<WireFormat> {
  if (!FORMAT_NAMES.includes(name))
    throw new Error(`API_FORMAT must be one of ${FORMAT_NAMES.join(', ')}; got "${name}"`);
  const module = (await load(`${PREFIX}${name}`)) as { createWireFormat?: () => WireFormat };
  if (typeof module.createWireFormat !== 'function') throw new Error(`${PREFIX}${name} exports no createWireFormat()`);
  return module.createWireFormat();
}

import { jsonApiFormat } from '@colapi/format-jsonapi';
import { legacyFormat } from '@colapi/format-legacy';
import type { WireFormat } from '@colapi/wire-format';

/** The wire formats the conformance target can serve, by API_FORMAT name. */
export const FORMATS: Readonly<Record<string, () => WireFormat>> = Object.freeze({
  jsonapi: jsonApiFormat,
  legacy: legacyFormat,
});

export function formatByName(name: string): WireFormat {
  const make = FORMATS[name];
  if (!make) throw new Error(`API_FORMAT must be one of ${Object.keys(FORMATS).join(', ')}; got "${name}"`);
  return make();
}

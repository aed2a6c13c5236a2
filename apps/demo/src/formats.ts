import { jsonApiFormat } from '@colapi/format-jsonapi';
import { legacyFormat } from '@colapi/format-legacy';
import { clusterSecret } from '@colapi/server-koa';
import type { WireFormat } from '@colapi/wire-format';

/** The wire formats the demo serves, by their API_FORMAT name; a format is one line here. */
export const FORMATS: Readonly<Record<string, () => WireFormat>> = Object.freeze({
  // With --workers, every worker signs and reads cursors with the primary's key.
  jsonapi: () => jsonApiFormat({ cursorSecret: clusterSecret() }),
  legacy: () => legacyFormat(),
});

export function formatByName(name: string): WireFormat {
  const make = FORMATS[name];
  if (!make) throw new Error(`API_FORMAT must be one of ${Object.keys(FORMATS).join(', ')}; got "${name}"`);
  return make();
}

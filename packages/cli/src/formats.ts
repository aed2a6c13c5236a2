import { jsonApiFormat } from '@colapi/format-jsonapi';
import { legacyFormat } from '@colapi/format-legacy';
import type { WireFormat } from '@colapi/wire-format';
import { clusterSecret } from '@colapi/server-koa';

/** Settings a format may read; the others ignore them. */
export interface FormatSettings {
  /** The key cursors are signed with (Format A's cursor pagination). */
  readonly cursorSecret?: string;
}

/**
 * The cursor key when none is configured: random, made once per process so that a reload keeps cursors
 * valid; the workers of one `colapi serve --workers` share their primary's (clusterSecret), so that a
 * cursor one made another reads. A restart makes another.
 */
const PROCESS_CURSOR_SECRET = clusterSecret();

/** The wire formats `--format` names; a format is one entry here. */
const FORMATS: Readonly<Record<string, (settings: FormatSettings) => WireFormat>> = Object.freeze({
  jsonapi: (settings: FormatSettings) =>
    jsonApiFormat({ cursorSecret: settings.cursorSecret ?? PROCESS_CURSOR_SECRET }),
  legacy: () => legacyFormat(),
});

export const FORMAT_NAMES: readonly string[] = Object.keys(FORMATS);

/** The wire format of a name `parseArguments` has checked. */
export const wireFormat = (name: string, settings: FormatSettings = {}): WireFormat => FORMATS[name]!(settings);

import { jsonApiFormat } from '@colapi/format-jsonapi';
import { legacyFormat } from '@colapi/format-legacy';
import type { WireFormat } from '@colapi/wire-format';

/** The wire formats `--format` names; a format is one entry here. */
const FORMATS: Readonly<Record<string, () => WireFormat>> = Object.freeze({
  jsonapi: jsonApiFormat,
  legacy: () => legacyFormat(),
});

export const FORMAT_NAMES: readonly string[] = Object.keys(FORMATS);

/** The wire format of a name `parseArguments` has checked. */
export const wireFormat = (name: string): WireFormat => FORMATS[name]!();

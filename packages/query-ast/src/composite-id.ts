/**
 * The text of a composite key's id: its parts in key order, joined by `,`; within a part a `\` escapes a `,`
 * or a `\` (and nothing else), so every tuple of parts has exactly one spelling and every spelling one tuple.
 */
export const COMPOSITE_ID_SEPARATOR = ',';

/** The id of a composite key's parts (each its canonical text: an integer's digits, a text itself). */
export function formatCompositeId(parts: readonly unknown[]): string {
  return parts.map((p) => String(p).replace(/[\\,]/g, (c) => `\\${c}`)).join(COMPOSITE_ID_SEPARATOR);
}

/** The parts an id spells, unescaped; undefined when a `\` escapes neither `,` nor `\`, or ends the id. */
export function splitCompositeId(id: string): string[] | undefined {
  const parts: string[] = [];
  let part = '';
  for (let i = 0; i < id.length; i++) {
    const c = id[i]!;
    if (c === '\\') {
      const next = id[i + 1];
      if (next !== '\\' && next !== COMPOSITE_ID_SEPARATOR) return undefined;
      part += next;
      i++;
    } else if (c === COMPOSITE_ID_SEPARATOR) {
      parts.push(part);
      part = '';
    } else part += c;
  }
  parts.push(part);
  return parts;
}

/** How the id of a composite key is spelled, for API descriptions (OpenAPI's `id`). */
export function compositeIdDescription(keyColumns: readonly string[]): string {
  return `The values of ${keyColumns.join(', ')}, in that order, joined by "${COMPOSITE_ID_SEPARATOR}"; within a value a backslash escapes "${COMPOSITE_ID_SEPARATOR}" and a backslash ("a\\,b" is the value a,b). An integer part is written in its canonical form.`;
}

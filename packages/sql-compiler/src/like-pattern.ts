/**
 * Translates a LIKE pattern (`%`, `_`, `\` escapes) into a GLOB pattern, which SQLite matches
 * case-sensitively. GLOB's own special characters in literal parts are put in brackets.
 */
export function likeToGlob(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length) {
      out += literal(pattern[++i]!);
    } else if (ch === '%') out += '*';
    else if (ch === '_') out += '?';
    else out += literal(ch);
  }
  return out;
}

function literal(ch: string): string {
  return ch === '*' || ch === '?' || ch === '[' ? `[${ch}]` : ch;
}

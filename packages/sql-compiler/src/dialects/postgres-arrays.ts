/**
 * PostgreSQL's array text form, both ways, for one-dimensional arrays: what a bound array value is written
 * as (every element quoted, so no element is read as NULL or split), and what node-postgres hands back for
 * an array type it has no parser for (an enum's array, say).
 */

/** `["a", null, "b\"c"]` as `{"a",NULL,"b\"c"}`. */
export function arrayLiteral(items: readonly unknown[]): string {
  const parts = items.map((v) =>
    v === null || v === undefined ? 'NULL' : `"${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
  );
  return `{${parts.join(',')}}`;
}

/** `{a,"b c",NULL}` as `['a', 'b c', null]`: elements stay text, unquoted NULL is null. */
export function parseArrayLiteral(text: string): (string | null)[] {
  const out: (string | null)[] = [];
  // A lower bound other than 1 comes first: `[0:1]={a,b}`.
  const body = text.slice(text.indexOf('{') + 1, text.lastIndexOf('}'));
  if (body === '') return out;
  let i = 0;
  while (i <= body.length) {
    if (body[i] === '"') {
      let value = '';
      i++;
      while (i < body.length && body[i] !== '"') {
        if (body[i] === '\\') i++;
        value += body[i++];
      }
      out.push(value);
      i += 2; // the closing quote and the comma
    } else {
      const end = body.indexOf(',', i);
      const value = body.slice(i, end < 0 ? body.length : end);
      out.push(value === 'NULL' ? null : value);
      i = end < 0 ? body.length + 1 : end + 1;
    }
  }
  return out;
}

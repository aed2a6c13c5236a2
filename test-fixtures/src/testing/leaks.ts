/**
 * What an error answer must never tell a client (unless the server's `debug` option is on): SQL text,
 * driver messages, stack frames, connection strings and server file paths.
 */
const LEAKS: readonly (readonly [string, RegExp])[] = [
  [
    'SQL text',
    /\b(select\b[\s\S]{0,200}?\bfrom|insert\s+into|update\s+\S+\s+set|delete\s+from|returning\s|order\s+by|group\s+by|limit\s+\?|where\s+["`\w.]+\s*(=|in\b|like\b|is\b))/i,
  ],
  ['quoted SQL identifiers', /"t\d+"\."|`t\d+`\.`|\bt\d+\.\w+/],
  ['a bound parameter', /\$\d+\b|\(\s*\?(\s*,\s*\?)*\s*\)|(=|<>|<=|>=|\bin|\blike|\blimit|\boffset)\s*\?(?!\?)/i],
  [
    'driver text',
    /\b(sqlite_\w+|er_\w+|errno|sqlstate|syntax error|constraint failed|violates|duplicate (key|entry)|econnrefused|econnreset|epipe|knex\b|node-postgres|mysql2|better-sqlite3|pool is probably full|relation "|column "|unknown column)/i,
  ],
  [
    'a stack frame',
    /\bat\s+(?:[^\s()]+\s+)?\(?(?:file:\/\/|node:|\/)[^\s()]*:\d+(?::\d+)?\)?|\.(?:ts|js|mjs|cjs):\d+:\d+/,
  ],
  [
    'a connection string',
    /\b(postgres(?:ql)?|mysql|mariadb):\/\/|\bsqlite:[^\s"]*|\/tmp\/colapi|\/var\/run\/(postgresql|mysqld)/i,
  ],
];

/** Every string of a JSON value (keys too), for the list of things a request sent. */
export function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      stringsOf(v, out);
    }
  }
  return out;
}

/** The texts of an error body: its string leaves, or the raw text when it is not JSON (JSONP is unwrapped). */
function textsOf(body: string): string[] {
  const json = body.startsWith('/**/') ? body.slice(body.indexOf('(') + 1, body.lastIndexOf(')')) : body;
  try {
    return stringsOf(JSON.parse(json));
  } catch {
    return [body];
  }
}

/**
 * Scans an error answer for a leak. Details may quote what the client sent (its field name, its value), so
 * every such echo — as sent, as JSON, and cut as the server cuts long values — is removed first: a client
 * that sends `select * from x` may be told that it is not a field.
 */
export function findLeak(body: string, echoes: Iterable<string> = []): string | undefined {
  const forms = new Set<string>();
  for (const e of echoes) {
    if (e.length < 2) continue;
    const json = JSON.stringify(e);
    // The server quotes long values cut at 57 characters (shownValue of @colapi/query-ast).
    for (const f of [e, e.slice(0, 57), json, json.slice(1, -1), json.slice(0, 57)]) if (f.length >= 2) forms.add(f);
  }
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  for (let text of textsOf(body)) {
    for (const f of sorted) if (text.includes(f)) text = text.split(f).join(' ');
    for (const [what, pattern] of LEAKS) {
      const m = pattern.exec(text);
      if (m) return `${what}: "${m[0]}" in ${JSON.stringify(text.slice(0, 300))}`;
    }
  }
  return undefined;
}

/** A node of a PostgreSQL `pg_node_tree` (`{QUERY :rtable (…) …}`): its name and fields. */
export interface PgNode {
  readonly node: string;
  readonly fields: ReadonlyMap<string, PgValue>;
}

/** A value of a node tree: a node, a list, an atom (numbers, names, booleans, as written), or null (`<>`). */
export type PgValue = PgNode | readonly PgValue[] | string | null;

interface Token {
  readonly text: string;
  /** Written without a backslash: only such a `{`, `(`, `<>` or `:name` means structure. */
  readonly plain: boolean;
}

/** The tokens of PostgreSQL's outfuncs text: `(){}` stand alone, whitespace separates, a backslash escapes. */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if ('(){}'.includes(ch)) {
      out.push({ text: ch, plain: true });
      i++;
      continue;
    }
    let word = '';
    let plain = true;
    while (i < text.length && !/\s/.test(text[i]!) && !'(){}'.includes(text[i]!)) {
      if (text[i] === '\\' && i + 1 < text.length) {
        plain = false;
        word += text[i + 1];
        i += 2;
      } else word += text[i++];
    }
    out.push({ text: word, plain });
  }
  return out;
}

/**
 * Parses the text of a `pg_node_tree` (a view's `pg_rewrite.ev_action`), as PostgreSQL's outfuncs write it.
 * Only the shape is read — nodes, fields, lists, atoms — not what each field means; a field is followed by one
 * value, and a `Const`'s datum (`:constvalue 4 [ 1 0 0 0 ]`) by a few more atoms, which are dropped.
 * Throws on text it cannot follow: the caller then knows nothing of that view.
 */
export function parsePgNodeTree(text: string): PgValue {
  const list = tokens(text);
  let at = 0;
  const next = (): Token => {
    const t = list[at++];
    if (t === undefined) throw new Error('node tree: unexpected end');
    return t;
  };
  const isField = (t: Token) => t.plain && t.text.startsWith(':') && t.text.length > 1;
  const value = (): PgValue => {
    const t = next();
    if (t.plain && t.text === '{') {
      const name = next().text;
      const fields = new Map<string, PgValue>();
      for (;;) {
        const f = next();
        if (f.plain && f.text === '}') return { node: name, fields };
        if (!isField(f)) continue; // the rest of a datum
        fields.set(f.text.slice(1), value());
      }
    }
    if (t.plain && t.text === '(') {
      const items: PgValue[] = [];
      while (!(list[at]?.plain && list[at]!.text === ')')) items.push(value());
      at++;
      return items;
    }
    if (t.plain && t.text === '<>') return null;
    // A string (`"rental_id"`) is written in quotes.
    return t.text.length >= 2 && t.text.startsWith('"') && t.text.endsWith('"') ? t.text.slice(1, -1) : t.text;
  };
  const out = value();
  if (at !== list.length) throw new Error('node tree: text after the end');
  return out;
}

/** The node a value is, when it is one of that name. */
export function pgNode(value: PgValue | undefined, name: string): PgNode | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && (value as PgNode).node === name
    ? (value as PgNode)
    : undefined;
}

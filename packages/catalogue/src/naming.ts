/**
 * English plural of a table name for the to-many side of a relationship: `article` → `articles`,
 * `category` → `categories`, `box` → `boxes`, `address` → `addresses`. A name that already ends in a single
 * `s` is taken to be plural already (`books` stays `books`).
 */
export function plural(name: string): string {
  if (/ss$/i.test(name)) return `${name}es`;
  if (/s$/i.test(name)) return name;
  if (/(x|z|ch|sh)$/i.test(name)) return `${name}es`;
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

/** A foreign-key column without its key suffix (`author_id` → `author`, `authorId` → `author`); undefined without one. */
export function withoutKeySuffix(column: string): string | undefined {
  const m = /^(.+?)(_id|Id|_fk)$/.exec(column);
  return m ? m[1] : undefined;
}

/** The name of a model: the table name in PascalCase (`article_tag` → `ArticleTag`), as an Objection class would be named. */
export function modelName(table: string): string {
  const words = table.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return name === '' ? table : name;
}

/**
 * Values drawn from the JSON Schemas of an OpenAPI document: one a client generated from the document
 * would send (`validValue`), and values the document says the server must refuse (`invalidValues`).
 */
type Schema = Record<string, any>;

/** Follows `$ref` into the document's components. */
export function resolve(schema: Schema, doc: Schema): Schema {
  let s = schema;
  for (let i = 0; s?.$ref && i < 20; i++)
    s = s.$ref
      .split('/')
      .slice(1)
      .reduce((o: Schema, k: string) => o[k], doc);
  return s ?? {};
}

const firstType = (s: Schema): string | undefined =>
  Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;

/** A value that fits the schema, as plain as possible: examples and defaults first, required members only. */
export function validValue(schema: Schema, doc: Schema, depth = 0): unknown {
  const s = resolve(schema, doc);
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.anyOf ?? s.oneOf)) return validValue((s.anyOf ?? s.oneOf)[0], doc, depth + 1);
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((p: Schema) => validValue(p, doc, depth + 1)));
  switch (firstType(s)) {
    case 'integer':
      return Math.max(s.minimum ?? 1, 1);
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'string':
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'array':
      return depth > 4 || !s.items ? [] : [validValue(s.items, doc, depth + 1)];
    case 'null':
      return null;
    case 'object':
    case undefined: {
      if (!s.properties && firstType(s) === undefined) return 'x';
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) out[name] = validValue(s.properties?.[name] ?? {}, doc, depth + 1);
      return out;
    }
  }
  return 'x';
}

/** Values that may break a schema, from its own keywords, its branches and (nested) its members. */
function candidates(schema: Schema, doc: Schema, depth: number): { value: unknown; why: string }[] {
  const s = resolve(schema, doc);
  const out: { value: unknown; why: string }[] = [];
  const type = firstType(s);
  if (Array.isArray(s.enum)) out.push({ value: 'not-one-of-them', why: 'not in enum' });
  if (type === 'integer') {
    out.push({ value: 'x', why: 'not an integer' });
    if (s.minimum !== undefined) out.push({ value: s.minimum - 1, why: 'below minimum' });
    if (s.maximum !== undefined) out.push({ value: s.maximum + 1, why: 'above maximum' });
  }
  if (type === 'string' && s.pattern) out.push({ value: '1 not matching', why: 'pattern' });
  if (type === 'string' && s.maxLength !== undefined) out.push({ value: 'x'.repeat(s.maxLength + 1), why: 'too long' });
  if (type === 'array') {
    out.push({ value: { not: 'a list' }, why: 'not an array' });
    if (s.maxItems !== undefined && s.items)
      out.push({ value: Array(s.maxItems + 1).fill(validValue(s.items, doc, 1)), why: 'too many items' });
  }
  if (type === 'object') {
    const plain = validValue(s, doc, 1) as Record<string, unknown>;
    out.push({ value: ['not', 'an', 'object'], why: 'not an object' });
    if (s.additionalProperties === false)
      out.push({ value: { ...plain, not_a_member: 1 }, why: 'with a member it does not have' });
    if (s.minProperties !== undefined) out.push({ value: {}, why: 'with too few members' });
    if (s.maxProperties !== undefined && s.properties) {
      const all = Object.fromEntries(Object.entries<Schema>(s.properties).map(([k, v]) => [k, validValue(v, doc, 1)]));
      out.push({ value: all, why: `with more than ${s.maxProperties} of ${Object.keys(all).join(', ')}` });
    }
    for (const part of s.allOf ?? []) {
      const both = resolve(part, doc).not?.required as string[] | undefined;
      if (both)
        out.push({
          value: { ...plain, ...Object.fromEntries(both.map((k) => [k, validValue(s.properties?.[k] ?? {}, doc, 1)])) },
          why: `with both ${both.join(' and ')}`,
        });
    }
    if (depth < 3) {
      for (const [name, member] of Object.entries<Schema>(s.properties ?? {})) {
        for (const c of candidates(member, doc, depth + 1))
          out.push({ value: { ...plain, [name]: c.value }, why: `${name} ${c.why}` });
      }
    }
  }
  if (depth < 3) for (const branch of s.anyOf ?? s.oneOf ?? []) out.push(...candidates(branch, doc, depth + 1));
  return out;
}

/**
 * Values the schema refuses, each with why (none when it accepts anything): candidates drawn from its
 * keywords, branches and members, kept only where the document's own schema refuses them.
 */
export function invalidValues(
  schema: Schema,
  doc: Schema,
  refuses: (value: unknown) => boolean,
): { value: unknown; why: string }[] {
  const seen = new Set<string>();
  return candidates(schema, doc, 0).filter(({ value }) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return refuses(value);
  });
}

/**
 * Valid values that each add one optional member to the plain value of an object schema (every branch of
 * an anyOf member, one at a time), so that every member the document offers is sent once.
 */
export function memberVariants(schema: Schema, doc: Schema): { value: unknown; member: string }[] {
  const s = resolve(schema, doc);
  const object = Array.isArray(s.allOf) ? Object.assign({}, ...s.allOf.map((p: Schema) => resolve(p, doc))) : s;
  const base = validValue(schema, doc);
  if (typeof base !== 'object' || base === null || Array.isArray(base) || !object.properties) return [];
  const out: { value: unknown; member: string }[] = [];
  for (const [name, member] of Object.entries<Schema>(object.properties)) {
    const m = resolve(member, doc);
    const branches: Schema[] = m.anyOf ?? m.oneOf ?? [m];
    branches.forEach((branch, i) => {
      const b = resolve(branch, doc);
      out.push({
        value: { ...base, [name]: validValue(branch, doc, 1) },
        member: `${name}${branches.length > 1 ? `#${i}` : ''}`,
      });
      // An object branch is sent with each of its own optional members too (add, remove, single…).
      for (const [inner, innerSchema] of Object.entries<Schema>(b.properties ?? {})) {
        if ((b.required ?? []).includes(inner)) continue;
        const plain = validValue(branch, doc, 1) as Record<string, unknown>;
        if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) continue;
        out.push({
          value: { ...base, [name]: { ...plain, [inner]: validValue(innerSchema, doc, 2) } },
          member: `${name}.${inner}`,
        });
      }
    });
  }
  return out;
}

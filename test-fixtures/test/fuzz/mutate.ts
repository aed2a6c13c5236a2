import fc from 'fast-check';
import { hostileJson, hostileString } from './hostile.js';

type Json = unknown;
type Edit = 'replace' | 'drop' | 'add' | 'wrap' | 'stringify';

/** Every node of a JSON value with a function that rebuilds the whole value with that node changed. */
function spots(
  value: Json,
  rebuild: (v: Json | undefined) => Json = (v) => v,
): [Json, (v: Json | undefined) => Json][] {
  const out: [Json, (v: Json | undefined) => Json][] = [[value, rebuild]];
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push(
        ...spots(item, (v) =>
          rebuild(v === undefined ? value.filter((_, j) => j !== i) : value.map((x, j) => (j === i ? v : x))),
        ),
      );
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [k, item] of Object.entries(value)) {
      out.push(
        ...spots(item, (v) => {
          const copy: Record<string, Json> = { ...(value as Record<string, Json>) };
          if (v === undefined) delete copy[k];
          else copy[k] = v;
          return rebuild(copy);
        }),
      );
    }
  }
  return out;
}

function edit(value: Json, at: number, how: Edit, replacement: Json, key: string): Json {
  const all = spots(value);
  const [node, rebuild] = all[at % all.length]!;
  switch (how) {
    case 'replace':
      return rebuild(replacement);
    case 'drop':
      return rebuild(undefined);
    case 'add':
      if (Array.isArray(node)) return rebuild([...node, replacement]);
      if (node !== null && typeof node === 'object') return rebuild({ ...(node as object), [key]: replacement });
      return rebuild(replacement);
    case 'wrap':
      return rebuild([node]);
    case 'stringify':
      return rebuild(JSON.stringify(node) ?? 'null');
  }
}

/**
 * A valid value as it is half the time, else with one change at one random place: a node replaced by a
 * hostile value, dropped, given a hostile member, wrapped in a list or turned into its JSON text. One
 * change at a time gets past every check but the one under test.
 */
export function mutated<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<Json> {
  const change = fc.record({
    at: fc.nat(),
    how: fc.constantFrom<Edit>('replace', 'replace', 'replace', 'drop', 'add', 'wrap', 'stringify'),
    replacement: hostileJson,
    key: hostileString,
  });
  return fc
    .tuple(valid, fc.option(change, { freq: 2, nil: undefined }))
    .map(([v, c]) => (c ? edit(v, c.at, c.how, c.replacement, c.key) : v));
}

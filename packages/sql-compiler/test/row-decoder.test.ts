import { defineModel, type ColumnSchema } from '@colapi/schema';
import { expect } from 'chai';
import { mysql, postgres, sqlite } from '../src/dialects/index.js';
import { rowDecoder } from '../src/row-decoder.js';

/** Names that are special in JavaScript source or in an object, and values of every decoded type. */
const COLUMNS: ColumnSchema[] = [
  { name: 'id', type: 'integer', nullable: true },
  { name: 'title', type: 'string', nullable: true },
  { name: 'say "hi"', type: 'string', nullable: true },
  { name: 'back\\slash', type: 'string', nullable: true },
  { name: 'line\u2028break', type: 'string', nullable: true },
  { name: '$' + '{x}', type: 'string', nullable: true },
  { name: "'); process.exit(1); ('", type: 'string', nullable: true },
  { name: 'constructor', type: 'string', nullable: true },
  { name: 'toString', type: 'string', nullable: true },
  { name: '1', type: 'integer', nullable: true },
  { name: 'ok', type: 'boolean', nullable: true },
  { name: 'at', type: 'datetime', nullable: true },
  { name: 'when', type: 'time', nullable: true },
  { name: 'price', type: 'number', nullable: true },
];

const RAW: Record<string, unknown> = {
  id: 7,
  title: 'Title',
  'say "hi"': 'q',
  'back\\slash': 'b',
  'line\u2028break': 'l',
  ['$' + '{x}']: 't',
  "'); process.exit(1); ('": 'i',
  constructor: 'c',
  toString: 's',
  '1': 1,
  ok: 1,
  at: '2024-01-02 03:04:05',
  when: '10:11:12',
  price: null,
};

/** What the decoder does, written as a loop over the columns: the reference the generated code must match. */
function expected(dialect: typeof postgres, columns: readonly ColumnSchema[], raw: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const c of columns) out[c.name] = dialect.decodeValue(c, raw[c.name]);
  return out;
}

describe('rowDecoder', () => {
  for (const dialect of [postgres, mysql, sqlite]) {
    it(`decodes every column of a model as decodeValue does, whatever its name (${dialect.name})`, () => {
      const model = defineModel({ name: 'odd', table: 'odd', columns: COLUMNS });
      const decoded = rowDecoder(dialect, model)(RAW);
      expect(decoded).to.deep.equal(expected(dialect, COLUMNS, RAW));
      expect(Object.keys(decoded)).to.deep.equal(Object.keys(expected(dialect, COLUMNS, RAW)));
      expect(Object.getPrototypeOf(decoded)).to.equal(Object.prototype);
    });
  }

  it('does not let a column named __proto__ set the prototype (the loop decodes such a model)', () => {
    const columns: ColumnSchema[] = [
      { name: 'id', type: 'integer', nullable: true },
      { name: '__proto__', type: 'string', nullable: true },
    ];
    const model = defineModel({ name: 'proto', table: 'proto', columns });
    const decoded = rowDecoder(postgres, model)({ id: 1, ['__proto__']: 'x' });
    expect(decoded.id).to.equal(1);
    expect(Object.getPrototypeOf(decoded)).to.equal(Object.prototype);
  });

  it('is built once per model and dialect', () => {
    const model = defineModel({ name: 'once', table: 'once', columns: COLUMNS.slice(0, 2) });
    expect(rowDecoder(postgres, model)).to.equal(rowDecoder(postgres, model));
    expect(rowDecoder(postgres, model)).to.not.equal(rowDecoder(sqlite, model));
  });
});

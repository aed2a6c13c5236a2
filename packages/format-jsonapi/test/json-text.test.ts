import { expect } from 'chai';
import { allPlainJsonText, isPlainJsonText, jsonContent, jsonString, jsonValue } from '../src/json-text.js';

describe('JSON text of values (json-text.ts)', () => {
  const STRINGS = [
    '',
    'plain text',
    'quote " and backslash \\',
    'controls \u0000 \u0001 \n \t \u001f and DEL \u007f',
    'line separators \u2028 \u2029',
    'é € 😀 (a surrogate pair)',
    'lone high \ud800 and low \udc00 surrogates',
    '</script>',
  ];

  it('writes every string as JSON.stringify does', () => {
    for (const s of STRINGS) expect(jsonString(s), JSON.stringify(s)).to.equal(JSON.stringify(s));
  });

  it('writes the content of a string between its quotes', () => {
    for (const s of STRINGS) expect(`"${jsonContent(s)}"`).to.equal(JSON.stringify(s));
  });

  it('writes every kind of attribute value as JSON.stringify does', () => {
    const VALUES = [0, -0, 1.5, -2, 1e21, 5e-7, Number.MAX_SAFE_INTEGER, true, false, null, 'x', [1, 'a', null]];
    const OBJECTS = [{ a: 1, b: [true, { c: '"' }] }, [], {}];
    for (const v of [...VALUES, ...OBJECTS]) expect(jsonValue(v), String(v)).to.equal(JSON.stringify(v));
  });

  it('tells a list plain exactly when every text of it is, a surrogate pair split over two texts included', () => {
    const lists = [[], ['1', '22'], ['plain', 'text'], ...STRINGS.map((s) => ['ok', s]), ['a\ud83d', '\ude00b']];
    for (const list of lists) expect(allPlainJsonText(list), list.join('|')).to.equal(list.every(isPlainJsonText));
    expect(allPlainJsonText(['a\ud83d', '\ude00b'])).to.equal(false);
  });

  it('writes what JSON has no form for as null, as JSON.stringify does in an array', () => {
    for (const v of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, undefined])
      expect(jsonValue(v)).to.equal(JSON.stringify([v]).slice(1, -1));
  });
});

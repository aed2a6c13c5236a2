import fc from 'fast-check';

/** SQL injection attempts: each must reach the database as a bound value, or be refused, never run. */
export const SQL_INJECTIONS: readonly string[] = [
  "' OR '1'='1",
  "' OR 1=1 --",
  '" OR ""="',
  "1' OR '1'='1' /*",
  '1 OR 1=1',
  '1) OR (1=1',
  "'; DROP TABLE person; --",
  '"; DROP TABLE person; --',
  '`; DROP TABLE person; --',
  '1; DELETE FROM article',
  "name'); UPDATE person SET age = 0; --",
  "x' UNION SELECT null, version() --",
  '1 UNION ALL SELECT id, name FROM person',
  "' AND (SELECT pg_sleep(3)) IS NOT NULL --",
  "'||pg_sleep(3)||'",
  '1 AND SLEEP(3)',
  "' OR SLEEP(3) #",
  "1'; WAITFOR DELAY '0:0:3' --",
  'randomblob(1000000000)',
  "load_extension('/tmp/x')",
  "ATTACH DATABASE '/tmp/x.db' AS x",
  'PRAGMA writable_schema = 1',
  'name--',
  'name/*',
  'name"',
  'name`',
  "name'",
  'person.name',
  '"person"."name"',
  '`person`.`name`',
  't0.name',
  '"t0"."name"',
  'name; SELECT 1',
  'COUNT(*)',
  'sum(id)',
  'CAST(1 AS int)',
  '(SELECT 1)',
  'id::text',
  'name COLLATE "C"',
  '$1',
  '?',
  '??',
  ':name',
  '@@version',
  '0x27',
  'char(39)',
  "\\'; DROP TABLE tag; --",
  "%' OR '%'='",
  '%_%',
  "'\u0000; DROP TABLE person; --",
  '1 or true',
  'true; --',
];

/** Values that have broken parsers elsewhere: encodings, numbers, dates, names of the JavaScript runtime. */
export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFFx',
  '💥',
  'é',
  'e\u0301',
  '\u202Eevil',
  '\uFEFF',
  '\n',
  '\r\n',
  '\\',
  '\\\\',
  '%',
  '%00',
  '%ZZ',
  '%E0%A4%A',
  '_',
  '*',
  '[',
  ']',
  '{}',
  '[]',
  '..',
  '../',
  '/',
  '.',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  'true',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'CURRENT_TIMESTAMP',
  'CURRENT_DATE',
  'LOCALTIMESTAMP',
  'current_timestamp',
  'x'.repeat(300),
  'é'.repeat(101),
  '9'.repeat(40),
  '1e999',
  '-1e999',
  '1e-999',
  '0x10',
  '  42  ',
  '42abc',
  '2147483648',
  '-2147483649',
  '9223372036854775808',
  '9007199254740993',
  '5e-324',
  '-0',
  '0000-00-00',
  '0001-01-01',
  '9999-12-31',
  '2024-02-30',
  '2024-02-29',
  '2024-01-01T25:00:00',
  '2024-01-01T10:00:00+01:00',
  '2024-01-01T10:00:00.123456789Z',
  '24:00:00',
  '23:59:60',
  '10.0.0.1/33',
  '10.0.0.0/8',
  '::1',
  'fe80::1%eth0',
  '999.1.1.1',
];

export const ODD_NUMBERS: readonly number[] = [
  0,
  -0,
  1,
  -1,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  2 ** 53,
  2 ** 53 - 1,
  -(2 ** 53),
  2 ** 63,
  1e308,
  -1e308,
  5e-324,
  0.1,
  1.5,
  1e21,
  86400 * 366 * 10000,
];

/** Raw JSON number tokens JSON.parse turns into Infinity, zero or imprecise numbers. */
export const RAW_NUMBERS: readonly string[] = [
  '1e999',
  '-1e999',
  '1e-999',
  '123456789012345678901234567890',
  '-0',
  '0.0000000000000000000001',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SQL_INJECTIONS) },
  { weight: 3, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...ODD_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.maxSafeInteger(),
);

/** Any JSON value, nested a few levels, with hostile keys and leaves. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A real name most of the time, a hostile one otherwise: the parser must look at the real ones closely. */
export function nameFrom(names: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...names) },
    { weight: 2, arbitrary: hostileString },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...names), hostileString).map(([a, b]) => a + b) },
  );
}

/** Usually `valid`, sometimes any hostile JSON in its place: a wrong type or shape at that spot. */
export function sometimes<T>(valid: fc.Arbitrary<T>, weight = 6): fc.Arbitrary<T | unknown> {
  return fc.oneof({ weight, arbitrary: valid }, { weight: 1, arbitrary: hostileJson });
}

/** A value for a field of any type: well-typed ones of every column type, and hostile ones. */
export const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.integer({ min: -1000, max: 100000 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '2024-01-01',
      '1999-01-15T08:30:00',
      '22:30:00',
      '10.0.0.1',
      '10.0.0.0/8',
      'CURRENT_TIMESTAMP',
      'news',
    ),
  },
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
  { weight: 1, arbitrary: hostileJson },
);

/** JSON text that is not what JSON.stringify writes: deep nesting, huge numbers, broken syntax. */
export const rawJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1, max: 5000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 1, max: 3000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.constantFrom(
    '['.repeat(200000),
    '{',
    '[1,',
    '"\\ud800"',
    '"\\u0000"',
    'nul',
    '{"a":1,"a":2}',
    '\uFEFF[]',
    '[1e999]',
    '',
  ),
  fc.constantFrom(...RAW_NUMBERS).map((n) => `[{"name":"age","op":"==","val":${n}}]`),
  fc.constantFrom(...RAW_NUMBERS).map((n) => `{"data":{"type":"person","attributes":{"other":${n},"age":${n}}}}`),
  fc.constantFrom(...RAW_NUMBERS).map((n) => `{"other":${n},"age":${n}}`),
);

/** Values of one column kind: well-formed ones and the edges of the kind (wrong types come from `mutated`). */
export function typedValue(kind: string): fc.Arbitrary<unknown> {
  // The few values of a kind that break things are worth more tries than the many ordinary ones.
  const edges = <T>(ordinary: fc.Arbitrary<T>, ...values: T[]) =>
    fc.oneof({ weight: 1, arbitrary: ordinary }, { weight: 2, arbitrary: fc.constantFrom(...values) });
  const own: Record<string, fc.Arbitrary<unknown>> = {
    int: edges<unknown>(
      fc.integer({ min: -5, max: 120 }),
      2 ** 31 - 1,
      -(2 ** 31),
      2 ** 31,
      2 ** 53 - 1,
      '42',
      ' 7 ',
      '1e3',
      '1e999',
      '-0',
      '0x1F',
    ),
    num: edges<unknown>(
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
      1e308,
      -1e308,
      5e-324,
      '1.5',
      '1e999',
      '-1e999',
      '1e-999',
      '.5',
      '5.',
    ),
    text: fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.string({ unit: 'grapheme', maxLength: 10 }),
      fc.constantFrom(...SQL_INJECTIONS),
      fc.constantFrom('%', '_', '\\%', 'a%', '%o%', 'Alice'),
    ),
    date: fc.oneof(
      fc
        .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
      fc.constantFrom('CURRENT_DATE', '2024-02-29', '2023-02-29'),
    ),
    datetime: fc.oneof(
      fc
        .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 23)),
      fc.constantFrom('CURRENT_TIMESTAMP', 'LOCALTIMESTAMP', '2020-01-01 10:00:00', '2020-01-01T10:00:00Z'),
    ),
    time: fc.oneof(
      fc
        .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`),
      fc.constantFrom('22:30:00.123456789', 'CURRENT_TIMESTAMP'),
    ),
    interval: fc.oneof(fc.integer({ min: 0, max: 10 ** 7 }), fc.constantFrom(2 ** 53 - 1, -1, 86400 * 365 * 300000)),
    inet: fc.constantFrom('10.0.0.1', '10.0.0.0/8', '192.168.1.0/24', '::1', '2001:db8::/32', 'fe80::1%eth0'),
  };
  return own[kind] ?? fieldValue;
}

import { expect } from 'chai';
import { mysqlType, postgresType, sqliteType } from '../src/index.js';

/** Each reader's type table: what the catalogue names a type → the project's type (and a length), or none. */
const CASES = {
  postgres: [
    ['smallint', 'integer'],
    ['bigint', 'integer'],
    ['numeric(8,2)', 'number'],
    ['double precision', 'number'],
    ['boolean', 'boolean'],
    ['character varying(100)', 'string', 100],
    ['character(2)', 'string', 2],
    ['text', 'string'],
    ['public.citext', 'string'],
    ['date', 'date'],
    ['time(3) without time zone', 'time'],
    ['timestamp without time zone', 'datetime'],
    ['timestamp with time zone', undefined],
    ['interval', 'interval'],
    ['interval day to second', 'interval'],
    ['inet', 'inet'],
    ['cidr', 'inet'],
    ['jsonb', 'json'],
    ['uuid', undefined],
    ['bytea', undefined],
    ['integer[]', undefined],
    ['money', undefined],
    ['point', undefined],
  ],
  mysql: [
    ['tinyint(1)', 'boolean'],
    ['tinyint(4)', 'integer'],
    ['int(10) unsigned', 'integer'],
    ['bigint', 'integer'],
    ['decimal(10,2)', 'number'],
    ['double', 'number'],
    ['varchar(64)', 'string', 64],
    ['char(36)', 'string', 36],
    ['mediumtext', 'string'],
    ['json', 'json'],
    ['date', 'date'],
    ['time(6)', 'time'],
    ['datetime(6)', 'datetime'],
    ['timestamp', 'datetime'],
    ["enum('a','b')", undefined],
    ['blob', undefined],
    ['varbinary(16)', undefined],
    ['bit(1)', undefined],
    ['geometry', undefined],
  ],
  sqlite: [
    ['INTEGER', 'integer'],
    ['bigint', 'integer'],
    ['boolean', 'boolean'],
    ['REAL', 'number'],
    ['double precision', 'number'],
    ['numeric(8, 2)', 'number'],
    ['varchar(100)', 'string', 100],
    ['TEXT', 'string'],
    ['date', 'date'],
    ['datetime', 'datetime'],
    ['time', 'time'],
    ['json', 'json'],
    ['BLOB', undefined],
    ['', undefined],
  ],
} as const;

const READERS = { postgres: postgresType, mysql: mysqlType, sqlite: sqliteType };

describe('column types of each catalogue', () => {
  for (const [dialect, cases] of Object.entries(CASES)) {
    it(`maps ${dialect} types`, () => {
      for (const [sql, type, maxLength] of cases as readonly (readonly [string, string | undefined, number?])[]) {
        expect(READERS[dialect as keyof typeof READERS](sql), sql).to.deep.equal(
          maxLength === undefined ? { type } : { type, maxLength },
        );
      }
    });
  }
});

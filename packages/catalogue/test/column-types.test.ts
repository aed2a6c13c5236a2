import { expect } from 'chai';
import { mysqlType, postgresType, sqliteType } from '../src/index.js';

/** Each reader's type table: what the catalogue names a type → the project's type (and a length), or none. */
const CASES = {
  postgres: [
    ['smallint', 'integer'],
    ['bigint', 'integer'],
    ['numeric(8,2)', 'decimal', { detail: { precision: 8, scale: 2 } }],
    ['numeric', 'decimal'],
    ['money', 'decimal', { detail: { scale: 2, sqlType: 'money' } }],
    ['double precision', 'number'],
    ['boolean', 'boolean'],
    ['character varying(100)', 'string', { maxLength: 100 }],
    ['character(2)', 'string', { maxLength: 2 }],
    ['text', 'string'],
    ['public.citext', 'string'],
    ['date', 'date'],
    ['time(3) without time zone', 'time'],
    ['time with time zone', 'string', { detail: { sqlType: 'time with time zone' } }],
    ['timestamp without time zone', 'datetime'],
    ['timestamp with time zone', 'datetimetz'],
    ['interval', 'interval'],
    ['interval day to second', 'interval'],
    ['inet', 'inet'],
    ['cidr', 'inet'],
    ['jsonb', 'json', { detail: { sqlType: 'jsonb' } }],
    ['uuid', 'uuid'],
    ['bytea', 'binary'],
    ['tsvector', 'string', { detail: { sqlType: 'tsvector', readOnly: true } }],
    ['macaddr', 'string', { detail: { sqlType: 'macaddr' } }],
    ['integer[]', 'array', { detail: { items: 'integer', sqlType: 'integer[]' } }],
    ['text[]', 'array', { detail: { items: 'string', sqlType: 'text[]' } }],
    ['bytea[]', undefined],
    ['point', undefined],
  ],
  mysql: [
    ['tinyint(1)', 'boolean'],
    ['bit(1)', 'boolean'],
    ['tinyint(4)', 'integer'],
    ['int(10) unsigned', 'integer'],
    ['bigint', 'integer'],
    ['decimal(10,2)', 'decimal', { detail: { precision: 10, scale: 2 } }],
    ['decimal', 'decimal', { detail: { precision: 10, scale: 0 } }],
    ['double', 'number'],
    ['varchar(64)', 'string', { maxLength: 64 }],
    ['char(36)', 'string', { maxLength: 36 }],
    ['mediumtext', 'string'],
    ['uuid', 'uuid'],
    ['json', 'json'],
    ['date', 'date'],
    ['time(6)', 'time'],
    ['datetime(6)', 'datetime'],
    ['timestamp', 'datetime'],
    ["enum('a','B','it''s')", 'enum', { detail: { values: ['a', 'B', "it's"] } }],
    ["set('Trailers','Deleted Scenes')", 'set', { detail: { values: ['Trailers', 'Deleted Scenes'] } }],
    ['blob', 'binary'],
    ['varbinary(16)', 'binary'],
    ['bit(8)', undefined],
    ['geometry', undefined],
  ],
  sqlite: [
    ['INTEGER', 'integer'],
    ['bigint', 'integer'],
    ['boolean', 'boolean'],
    ['REAL', 'number'],
    ['double precision', 'number'],
    ['numeric(8, 2)', 'decimal', { detail: { precision: 8, scale: 2 } }],
    ['NUMERIC', 'number'],
    ['varchar(100)', 'string', { maxLength: 100 }],
    ['TEXT', 'string'],
    ['uuid', 'uuid'],
    ['date', 'date'],
    ['datetime', 'datetime'],
    ['time', 'time'],
    ['json', 'json'],
    ['BLOB', 'binary'],
    ['', undefined],
  ],
} as const;

const READERS = { postgres: postgresType, mysql: mysqlType, sqlite: sqliteType };

describe('column types of each catalogue', () => {
  for (const [dialect, cases] of Object.entries(CASES)) {
    it(`maps ${dialect} types`, () => {
      for (const [sql, type, more] of cases as readonly (readonly [string, string | undefined, object?])[]) {
        expect(READERS[dialect as keyof typeof READERS](sql), sql).to.deep.equal({ type, ...more });
      }
    });
  }
});

import { HttpClient, testedKinds, type DatabaseKind } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { isDeepStrictEqual } from 'node:util';
import { colapi, freePort, line, stop, type Run } from './colapi-process.js';
import { loadDataset, type LoadedDataset } from './dataset-loaders.js';
import {
  openSql,
  type Selection,
  type SqlColumn,
  type SqlForeignKey,
  type SqlSide,
  type SqlTable,
} from './dataset-sql.js';

/**
 * Real schemas served whole (issue 29): Chinook (PostgreSQL, MariaDB, SQLite), Pagila (PostgreSQL) and Sakila
 * (MariaDB), each loaded once into a database of its own and served by `colapi serve` with no configuration.
 * What the database says (its catalogue, its rows) is read apart from colapi and held against what colapi
 * serves: every table and view, every foreign key as a relationship, every column unless start-up names a
 * reason, sample rows value for value, and a write read back for each type of column.
 */

// ---- How colapi answers each SQL type ----------------------------------------------------------------------

interface Form {
  readonly name: string;
  /** The SQL type, lower case, as the catalogue names it (a PostgreSQL domain by its base type). */
  readonly type: RegExp;
  /** How the value is selected for its text to say it exactly; default its text. */
  readonly select?: Selection;
  /** The JSON colapi answers, from that text and the type's match. */
  readonly json: (text: string, type: RegExpExecArray) => unknown;
}

/** An exact decimal with the column's scale, from the database's text of it (SQLite may hold a float). */
function withScale(text: string, scale: number): string {
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > scale || /e/i.test(text)) return Number(text).toFixed(scale);
  return scale === 0 ? whole! : `${whole}.${fraction.padEnd(scale, '0')}`;
}

const FORMS: readonly Form[] = [
  { name: 'boolean', type: /^(boolean|bool|tinyint\(1\)( unsigned)?)$/, json: (t) => t === 't' || t === '1' },
  {
    name: 'integer',
    type: /^((tinyint|smallint|mediumint|int|integer|bigint)(\(\d+\))?( unsigned)?|year(\(4\))?)$/,
    json: Number,
  },
  { name: 'float', type: /^(real|double precision|double|float)(\(\d+(,\d+)?\))?( unsigned)?$/, json: Number },
  {
    name: 'decimal',
    type: /^(numeric|decimal)\s*\(\s*\d+\s*,\s*(\d+)\s*\)( unsigned)?$/,
    json: (t, m) => withScale(t, Number(m[2])),
  },
  {
    name: 'text',
    type: /^(character varying|varchar|nvarchar|character|char|nchar|text|tinytext|mediumtext|longtext)(\(\d+\))?$/,
    json: (t) => t,
  },
  {
    name: 'timestamp',
    type: /^(timestamp(\(\d\))?( without time zone)?|datetime(\(\d\))?)$/,
    json: (t) => t.replace(' ', 'T'),
  },
  {
    name: 'timestamptz',
    type: /^timestamp(\(\d\))? with time zone$/,
    json: (t) => t.replace(' ', 'T').replace(/\+00$/, 'Z'),
  },
  { name: 'date', type: /^date$/, json: (t) => t },
  { name: 'time', type: /^time(\(\d\))?( without time zone)?$/, json: (t) => t },
  {
    name: 'binary',
    type: /^(bytea|tinyblob|blob|mediumblob|longblob|(var)?binary\(\d+\))$/,
    select: 'hex',
    json: (t) => Buffer.from(t, 'hex').toString('base64'),
  },
  { name: 'uuid', type: /^uuid$/, json: (t) => t.toLowerCase() },
  { name: 'enum', type: /^enum\b/, json: (t) => t },
  { name: 'set', type: /^set\(/, json: (t) => (t === '' ? [] : t.split(',')) },
  { name: 'array', type: /\[\]$/, select: 'json', json: (t) => JSON.parse(t) },
  { name: 'json', type: /^jsonb?$/, json: (t) => JSON.parse(t) },
  // PostgreSQL's own text for types the project serves as text.
  {
    name: 'text form',
    type: /^(tsvector|tsquery|tsrange|tstzrange|daterange|int4range|int8range|numrange|interval|inet|cidr|macaddr8?)$/,
    json: (t) => t,
  },
];

function formOf(type: string): { form: Form; match: RegExpExecArray } | undefined {
  for (const form of FORMS) {
    const match = form.type.exec(type);
    if (match) return { form, match };
  }
  return undefined;
}

/** The JSON colapi answers for a value of a column, from what SQL selected for it. */
function expectedJson(column: SqlColumn, text: string | null): unknown {
  if (text === null) return null;
  const found = formOf(column.type)!;
  return found.form.json(text, found.match);
}

// ---- The datasets ------------------------------------------------------------------------------------------

/** A row to create in a table holding a type, with the value to read back; `links` are foreign keys to set. */
interface WriteCase {
  readonly type: string;
  readonly table: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  /** Foreign-key column → the key of the row it refers to, sent as the relationship that column is. */
  readonly links?: Readonly<Record<string, string>>;
  /** Required values the dataset's own triggers replace on insert: sent, not read back. */
  readonly also?: Readonly<Record<string, unknown>>;
}

interface DatasetRun {
  readonly dataset: string;
  readonly kind: DatabaseKind;
  readonly writes: readonly WriteCase[];
}

const BYTES = Buffer.from([0, 1, 2, 127, 128, 254, 255, 0x0a, 0x5c, 0x27]).toString('base64');

/** Chinook's names: PascalCase in the MySQL and SQLite scripts, snake_case in the PostgreSQL one. */
function chinookWrites(name: (n: string) => string): WriteCase[] {
  const cases: WriteCase[] = [
    {
      type: 'integer',
      table: 'Track',
      attributes: { Name: 'i29 track', Milliseconds: 2147483647, Bytes: -2147483648, UnitPrice: '0.99' },
      links: { MediaTypeId: '1' },
    },
    {
      type: 'numeric(10,2)',
      table: 'Invoice',
      attributes: { InvoiceDate: '2024-02-29T00:00:00', Total: '12345678.91' },
      links: { CustomerId: '1' },
    },
    { type: 'varchar, Unicode', table: 'Artist', attributes: { Name: 'Sigur Rós · Мумий Тролль · 東京事変 ½' } },
    {
      type: 'datetime',
      table: 'Employee',
      attributes: {
        LastName: 'Ødegård',
        FirstName: 'Åse',
        BirthDate: '1999-12-31T23:59:59',
        HireDate: '2024-02-29T08:30:00',
      },
    },
  ];
  return cases.map((c) => ({
    type: c.type,
    table: name(c.table),
    attributes: Object.fromEntries(Object.entries(c.attributes).map(([k, v]) => [name(k), v])),
    links: Object.fromEntries(Object.entries(c.links ?? {}).map(([k, v]) => [name(k), v])),
  }));
}

const snake = (n: string) => n.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

const PAGILA_WRITES: WriteCase[] = [
  {
    type: 'smallint',
    table: 'film',
    attributes: { title: 'i29 smallint', length: 32767 },
    links: { language_id: '1' },
  },
  {
    type: 'domain year',
    table: 'film',
    attributes: { title: 'i29 year', release_year: 2155 },
    links: { language_id: '1' },
  },
  {
    type: 'numeric(4,2)',
    table: 'film',
    attributes: { title: 'i29 numeric', rental_rate: '12.34', replacement_cost: '999.99' },
    links: { language_id: '1' },
  },
  {
    type: 'enum mpaa_rating',
    table: 'film',
    attributes: { title: 'i29 enum', rating: 'NC-17' },
    links: { language_id: '1' },
  },
  {
    type: 'text[]',
    table: 'film',
    attributes: { title: 'i29 array', special_features: ['Trailers', 'Deleted Scenes', 'a "quoted", {braced} ü'] },
    links: { language_id: '1' },
  },
  {
    type: 'text, Unicode',
    table: 'film',
    attributes: { title: 'i29 text', description: 'Ein Film über Åsa — 東京 ✓ 🎬\nzweite Zeile' },
    links: { language_id: '1' },
  },
  { type: 'varchar, Unicode', table: 'actor', attributes: { first_name: 'Zoë', last_name: 'Núñez-東' } },
  {
    type: 'timestamp',
    table: 'actor',
    attributes: { first_name: 'Tim', last_name: 'Stamp', last_update: '2024-02-29T12:34:56.789' },
  },
  // char(20) pads to 20 characters: a value of 20 reads back as written.
  { type: 'character(20)', table: 'language', attributes: { name: 'Quenya — Ñoldorin ✓!' } },
  {
    type: 'date',
    table: 'customer',
    attributes: { first_name: 'Dana', last_name: 'Date', create_date: '2024-02-29' },
    links: { store_id: '1', address_id: '1' },
  },
  {
    type: 'boolean',
    table: 'customer',
    attributes: { first_name: 'Bo', last_name: 'Olean', activebool: false },
    links: { store_id: '1', address_id: '1' },
  },
  {
    type: 'bytea',
    table: 'staff',
    attributes: { first_name: 'Pic', last_name: 'Ture', username: 'i29pic', picture: BYTES },
    links: { address_id: '1', store_id: '1' },
  },
  {
    type: 'tsrange',
    table: 'rental',
    attributes: { rental_period: '["2024-01-01 10:00:00","2024-01-08 10:00:00")' },
    links: { inventory_id: '1', customer_id: '1', staff_id: '1' },
  },
];

const SAKILA_WRITES: WriteCase[] = [
  {
    type: 'smallint unsigned',
    table: 'film',
    attributes: { title: 'i29 smallint', length: 65535 },
    links: { language_id: '1' },
  },
  {
    type: 'tinyint unsigned',
    table: 'film',
    attributes: { title: 'i29 tinyint', rental_duration: 255 },
    links: { language_id: '1' },
  },
  { type: 'year', table: 'film', attributes: { title: 'i29 year', release_year: 2155 }, links: { language_id: '1' } },
  {
    type: 'decimal(4,2)',
    table: 'film',
    attributes: { title: 'i29 decimal', rental_rate: '12.34', replacement_cost: '999.99' },
    links: { language_id: '1' },
  },
  { type: 'enum', table: 'film', attributes: { title: 'i29 enum', rating: 'NC-17' }, links: { language_id: '1' } },
  {
    type: 'set',
    table: 'film',
    attributes: { title: 'i29 set', special_features: ['Trailers', 'Behind the Scenes'] },
    links: { language_id: '1' },
  },
  {
    type: 'text, Unicode',
    table: 'film',
    attributes: { title: 'i29 text', description: 'Ein Film über Åsa — 東京 ✓\nzweite Zeile' },
    links: { language_id: '1' },
  },
  { type: 'varchar, Unicode', table: 'actor', attributes: { first_name: 'ZOË', last_name: 'NÚÑEZ-東' } },
  {
    type: 'timestamp',
    table: 'actor',
    attributes: { first_name: 'TIM', last_name: 'STAMP', last_update: '2024-02-29T12:34:56' },
  },
  { type: 'char(20)', table: 'language', attributes: { name: 'Klingon' } },
  // Sakila's triggers set customer.create_date, rental.rental_date and payment.payment_date on insert.
  {
    type: 'datetime',
    table: 'rental',
    attributes: { return_date: '2024-02-29T23:59:59' },
    also: { rental_date: '2024-02-28T10:00:00' },
    links: { inventory_id: '1', customer_id: '1', staff_id: '1' },
  },
  {
    type: 'boolean tinyint(1)',
    table: 'staff',
    attributes: { first_name: 'BO', last_name: 'OLEAN', username: 'i29bool', active: false },
    links: { address_id: '1', store_id: '1' },
  },
  {
    type: 'blob',
    table: 'staff',
    attributes: { first_name: 'Pic', last_name: 'Ture', username: 'i29pic', picture: BYTES },
    links: { address_id: '1', store_id: '1' },
  },
];

const RUNS: readonly DatasetRun[] = [
  { dataset: 'chinook', kind: 'postgres', writes: chinookWrites(snake) },
  { dataset: 'chinook', kind: 'mysql', writes: chinookWrites((n) => n) },
  { dataset: 'chinook', kind: 'sqlite', writes: chinookWrites((n) => n) },
  { dataset: 'pagila', kind: 'postgres', writes: PAGILA_WRITES },
  { dataset: 'sakila', kind: 'mysql', writes: SAKILA_WRITES },
];

// ---- What colapi serves ------------------------------------------------------------------------------------

/** A start-up warning: `warning: <table>[.<column>]: <reason>`. */
interface Warning {
  readonly table: string;
  readonly column?: string;
  readonly reason: string;
}

function warningsOf(stderr: string): Warning[] {
  return stderr.split('\n').flatMap((l) => {
    const m = /^warning: ([^.:]+)(?:\.([^:]+))?: (.+)$/.exec(l);
    return m ? [{ table: m[1]!, ...(m[2] === undefined ? {} : { column: m[2] }), reason: m[3]! }] : [];
  });
}

interface ServedRelationship {
  readonly target: string;
  readonly many: boolean;
}

/** A collection as the OpenAPI document describes it. */
interface ServedCollection {
  readonly attributes: ReadonlySet<string>;
  readonly relationships: ReadonlyMap<string, ServedRelationship>;
}

function collectionsOf(openapi: any): Map<string, ServedCollection> {
  const schemas: Record<string, any> = openapi.components.schemas;
  const out = new Map<string, ServedCollection>();
  const target = (ref: string) => /^#\/components\/schemas\/jsonapi\.(.+)\.identifier$/.exec(ref)![1]!;
  for (const [id, schema] of Object.entries(schemas)) {
    const name = /^jsonapi\.(.+)\.resource$/.exec(id)?.[1];
    if (name === undefined) continue;
    const relationships = new Map<string, ServedRelationship>();
    for (const [r, s] of Object.entries<any>(schema.properties.relationships?.properties ?? {})) {
      const data = s.properties.data;
      relationships.set(
        r,
        data.type === 'array'
          ? { target: target(data.items.$ref), many: true }
          : { target: target(data.anyOf[0].$ref), many: false },
      );
    }
    out.set(name, { attributes: new Set(Object.keys(schema.properties.attributes?.properties ?? {})), relationships });
  }
  return out;
}

/**
 * A partitioned table without a key of its own is keyed by the one-column primary key its partitions declare
 * (those that declare one: Pagila's catch-all partitions declare none), as colapi keys it.
 */
function withPartitionKeys(tables: readonly SqlTable[]): SqlTable[] {
  return tables.map((t) => {
    if (t.primaryKey.length > 0) return t;
    const keys = tables
      .filter((p) => p.partitionOf === t.name && p.primaryKey.length > 0)
      .map((p) => JSON.stringify(p.primaryKey));
    const [first] = keys;
    return first !== undefined && keys.every((k) => k === first) && JSON.parse(first).length === 1
      ? { ...t, primaryKey: JSON.parse(first) as string[] }
      : t;
  });
}

/** A key the table can be addressed by: its primary key, a unique not-null column, or a view's column `id`. */
function findableKey(t: SqlTable): string | undefined {
  if (t.primaryKey.length === 1) return t.primaryKey[0];
  if (t.primaryKey.length > 1) return undefined;
  const unique = t.uniques.find((u) => u.length === 1 && t.columns.find((c) => c.name === u[0])?.notNull);
  if (unique) return unique[0];
  const ids = t.columns.filter((c) => c.name.toLowerCase() === 'id');
  return t.kind === 'view' && ids.length === 1 ? ids[0]!.name : undefined;
}

/** A join table: a primary key of exactly two columns, each alone a foreign key. */
function joinKeys(t: SqlTable) {
  if (t.kind !== 'table' || t.primaryKey.length !== 2) return undefined;
  const keys = t.primaryKey.map((c) => t.foreignKeys.find((fk) => fk.columns.length === 1 && fk.columns[0] === c));
  return keys[0] && keys[1] ? ([keys[0], keys[1]] as const) : undefined;
}

const show = (v: unknown) => JSON.stringify(v);

/** `fields[collection]=a,b`: a sparse fieldset. */
const fieldset = (collection: string, fields: readonly string[]) =>
  `fields[${encodeURIComponent(collection)}]=${fields.map(encodeURIComponent).join(',')}`;

/** An error in a line or three: a JSON:API answer the schema refuses says where, not its whole body. */
const brief = (error: Error) =>
  error.message
    .split('\n')
    .filter((l) => !/^\s*body: /.test(l))
    .slice(0, 3)
    .map((l) => (l.length > 400 ? `${l.slice(0, 400)}…` : l.trim()))
    .join(' / ');

/** Fails with every problem found, one a line. */
function expectNone(failures: readonly string[], what: string): void {
  if (failures.length > 0) expect.fail(`${failures.length} ${what}:\n  ${failures.join('\n  ')}`);
}

// ---- The suite ---------------------------------------------------------------------------------------------

for (const run of RUNS.filter((r) => testedKinds().includes(r.kind))) {
  const where = `${run.dataset}/${run.kind}`;

  describe(`the ${run.dataset} dataset on ${run.kind}, served by colapi serve with no configuration`, function () {
    this.timeout(120_000);
    let loaded: LoadedDataset | undefined;
    let served: Run | undefined;
    let sql: SqlSide | undefined;
    let http: HttpClient;
    let tables: SqlTable[];
    let byName: Map<string, SqlTable>;
    let collections: Map<string, ServedCollection>;
    let warnings: Warning[];
    let relationships: Promise<{ failures: string[]; found: Map<string, string> }> | undefined;

    before(async () => {
      const started = Date.now();
      loaded = await loadDataset(run.dataset, run.kind);
      served = colapi(['serve', loaded.db.url, '--port', String(await freePort())]);
      const [, origin] = await line(served, /^listening on (\S+)$/);
      // The warnings are written before the listening line, the browse line after it: wait for that one.
      for (let i = 0; i < 100 && !served.stderr.includes('  browse '); i++) await new Promise((r) => setTimeout(r, 20));
      warnings = warningsOf(served.stderr);
      http = new HttpClient(origin!, 'application/vnd.api+json');
      const openapi = await http.get('/api/openapi.json');
      expect(openapi.status, 'GET /api/openapi.json').to.equal(200);
      collections = collectionsOf(openapi.body);
      sql = await openSql(run.kind, loaded.db.url);
      tables = withPartitionKeys(await sql.tables());
      byName = new Map(tables.map((t) => [t.name, t]));
      console.log(`    ${where}: loaded in ${loaded.loadMs} ms, served ${Date.now() - started} ms after the start`);
    });

    after(async () => {
      await stop(served);
      await sql?.close();
      await loaded?.db.drop();
    });

    const warned = (table: string, column?: string) => warnings.find((w) => w.table === table && w.column === column);
    const q = (name: string) => sql!.id(name);
    const textOf = (column: SqlColumn, qualified: string) =>
      sql!.select(qualified, formOf(column.type)?.form.select ?? 'text');
    const keyText = (t: SqlTable, alias?: string) => {
      const key = t.columns.find((c) => c.name === findableKey(t))!;
      return textOf(key, `${alias ? `${alias}.` : ''}${q(key.name)}`);
    };

    /**
     * The resource of a collection by its id, with only the fields named (a sparse fieldset: a store's linkage
     * to its thousands of rentals is no part of the check, and checking a document against the JSON:API
     * schema takes time by its size).
     */
    async function resource(collection: string, id: string, fields: readonly string[]): Promise<any> {
      const path = `/api/${collection}/${encodeURIComponent(id)}?${fieldset(collection, fields)}`;
      const res = await http.get(path);
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 300)}`);
      return res.body.data;
    }

    /**
     * Each foreign key as the relationship that serves it: a to-one of its table, or for a join table a
     * many-to-many on each end, found by what it links on sample rows of SQL (names are not assumed).
     */
    function findRelationships() {
      relationships ??= (async () => {
        const failures: string[] = [];
        const found = new Map<string, string>();
        const used = new Set<string>();
        /** The first relationship of the candidates, not yet taken by another key, that fits. */
        const claim = async (owner: string, candidates: string[], fits: (name: string) => Promise<boolean>) => {
          for (const name of candidates) {
            if (used.has(`${owner}.${name}`) || !(await fits(name))) continue;
            used.add(`${owner}.${name}`);
            return name;
          }
          return undefined;
        };
        /** The to-one relationship that serves a foreign key: it links, on sample rows, what the column holds. */
        const toOne = async (t: SqlTable, fk: SqlForeignKey, owner: string, target: SqlTable) => {
          const [column, reference] = [fk.columns[0]!, fk.references[0]!];
          const key = findableKey(t)!;
          const sample = [
            ...(await sql!.rows(
              `select ${keyText(t, 'o')} as id, ${keyText(target, 'r')} as ref from ${q(owner)} o
               join ${q(fk.table)} r on r.${q(reference)} = o.${q(column)} order by o.${q(key)} limit 5`,
            )),
            ...(await sql!.rows(
              `select ${keyText(t, 'o')} as id, null as ref from ${q(owner)} o where o.${q(column)} is null order by o.${q(key)} limit 1`,
            )),
          ];
          const candidates = [...collections.get(owner)!.relationships]
            .filter(([, r]) => !r.many && r.target === fk.table)
            .map(([n]) => n);
          if (candidates.length === 0) return `${owner} has no to-one relationship to ${fk.table}`;
          const resources = await Promise.all(sample.map((r) => resource(owner, r.id!, candidates)));
          // Claimed per declaring table: each partition declares the foreign keys of its parent again.
          const name = await claim(t.name, candidates, async (n) =>
            sample.every((r, i) => isDeepStrictEqual(resources[i].relationships?.[n]?.data?.id ?? null, r.ref)),
          );
          if (name !== undefined) return found.set(`${t.name}.${column}`, name) && undefined;
          return `no to-one relationship of ${owner} links what the column holds (to-one relationships to ${fk.table}: ${candidates.join(', ') || 'none'}; rows ${sample.map((r) => `${r.id} → ${r.ref}`).join(', ') || 'none'})`;
        };

        /** The to-many relationship of a join table's end `from` that links, on sample rows, what the join table holds. */
        const manyToMany = async (t: SqlTable, from: SqlForeignKey, to: SqlForeignKey) => {
          const [a, b] = [byName.get(from.table)!, byName.get(to.table)!];
          const aKey = findableKey(a)!;
          // The ends with the fewest links (a short linkage to compare), and one with none.
          const owners = [
            ...(await sql!.rows(
              `select ${keyText(a, 'a')} as id from ${q(a.name)} a join ${q(t.name)} j on j.${q(from.columns[0]!)} = a.${q(from.references[0]!)}
               group by a.${q(aKey)} order by count(*), a.${q(aKey)} limit 3`,
            )),
            ...(await sql!.rows(
              `select ${keyText(a, 'a')} as id from ${q(a.name)} a where not exists (select 1 from ${q(t.name)} j
               where j.${q(from.columns[0]!)} = a.${q(from.references[0]!)}) order by a.${q(aKey)} limit 1`,
            )),
          ];
          const linked = await Promise.all(
            owners.map(async (o) =>
              (
                await sql!.rows(
                  `select ${keyText(b, 'b')} as id from ${q(t.name)} j join ${q(a.name)} a on a.${q(from.references[0]!)} = j.${q(from.columns[0]!)}
                   join ${q(b.name)} b on b.${q(to.references[0]!)} = j.${q(to.columns[0]!)} where a.${q(aKey)} = ?`,
                  [o.id!],
                )
              )
                .map((r) => r.id!)
                .sort(),
            ),
          );
          const candidates = [...collections.get(a.name)!.relationships]
            .filter(([, r]) => r.many && r.target === b.name)
            .map(([n]) => n);
          if (candidates.length === 0) return `${a.name} has no to-many relationship to ${b.name}`;
          const resources = await Promise.all(owners.map((o) => resource(a.name, o.id!, candidates)));
          const name = await claim(a.name, candidates, async (n) =>
            owners.every((_, i) =>
              isDeepStrictEqual(
                (resources[i].relationships?.[n]?.data ?? []).map((l: { id: string }) => l.id).sort(),
                linked[i],
              ),
            ),
          );
          if (name !== undefined) return found.set(`${t.name}.${from.columns[0]}`, `${a.name}.${name}`) && undefined;
          return `no to-many relationship of ${a.name} links what ${t.name} holds (to-many relationships to ${b.name}: ${candidates.join(', ') || 'none'}; ${owners.map((o, i) => `${a.name} ${o.id} → [${linked[i]!.join(', ')}]`).join('; ')})`;
        };

        const attempt = async (label: string, check: () => Promise<string | undefined>) => {
          const failure = await check().catch((error: Error) => brief(error));
          if (failure !== undefined) failures.push(`${label}: ${failure}`);
        };

        for (const t of tables) {
          const join = joinKeys(t);
          for (const fk of t.foreignKeys) {
            const label = `${t.name}(${fk.columns.join(', ')}) → ${fk.table}(${fk.references.join(', ')})`;
            const owner = t.partitionOf ?? t.name;
            const target = byName.get(fk.table);
            if (fk.columns.length !== 1) failures.push(`${label}: a key of several columns is no relationship`);
            else if (!target || !collections.has(fk.table))
              failures.push(`${label}: ${fk.table} is not served as a collection`);
            else if (join)
              continue; // the pair is checked below
            else if (!collections.has(owner))
              failures.push(
                `${label}: ${owner}${owner === t.name ? '' : ` (of which ${t.name} is a partition)`} is not served`,
              );
            else if (findableKey(t) === undefined)
              failures.push(`${label}: ${t.name} is served by a key the test cannot find`);
            else await attempt(label, () => toOne(t, fk, owner, target));
          }
          if (!join?.every((fk) => collections.has(fk.table))) continue;
          for (const [from, to] of [
            [join[0], join[1]],
            [join[1], join[0]],
          ] as const)
            await attempt(`${t.name}: a join table, many-to-many from ${from.table} to ${to.table}`, () =>
              manyToMany(t, from, to),
            );
        }
        return { failures, found };
      })();
      return relationships;
    }

    it('serves every table, and every view with a findable key, as a collection', () => {
      const failures: string[] = [];
      for (const t of tables) {
        if (collections.has(t.name)) continue;
        if (t.partitionOf !== undefined) {
          // A partition's rows are its parent's, served there.
          if (!collections.has(t.partitionOf))
            failures.push(`${t.name}: a partition of ${t.partitionOf}, which is not served`);
          continue;
        }
        if (joinKeys(t)) continue; // served as the many-to-many relationships of its ends (the next test)
        const w = warned(t.name);
        if (t.kind === 'view' && findableKey(t) === undefined && w && /\bkey\b|\bid\b/.test(w.reason)) continue;
        const key = findableKey(t);
        failures.push(
          `${t.kind} ${t.name} (${key === undefined ? 'no findable key' : `key ${key}`}) is not served; start-up says ${w ? show(w.reason) : 'nothing of it'}`,
        );
      }
      expectNone(failures, `tables or views of ${where} not served`);
    });

    it('serves every foreign key as a relationship', async () => {
      expectNone((await findRelationships()).failures, `foreign keys of ${where} not served as relationships`);
    });

    it('serves every column, but those start-up names with a reason', async () => {
      const { found } = await findRelationships();
      const failures: string[] = [];
      for (const t of tables) {
        const join = joinKeys(t);
        const collection = collections.get(t.name);
        if (!collection && !join) continue; // its absence is the first test's
        for (const c of t.columns) {
          const servedAs = collection
            ? c.name === findableKey(t) ||
              collection.attributes.has(c.name) ||
              found.has(`${t.name}.${c.name}`) ||
              // A foreign key its partitions declare (Pagila's payment) is served by the parent's relationship.
              tables.some((p) => p.partitionOf === t.name && found.has(`${p.name}.${c.name}`))
            : join!.some((fk) => fk.columns[0] === c.name && found.has(`${t.name}.${c.name}`));
          if (servedAs || warned(t.name, c.name)) continue;
          failures.push(
            `${t.name}.${c.name} (${c.type})${collection ? '' : ` of the join table ${t.name}`} is not served; start-up names no reason`,
          );
        }
      }
      expectNone(failures, `columns of ${where} left out silently`);
    });

    it('answers the first five rows of each collection by key, and the last, as SQL holds them, value for value', async () => {
      const failures: string[] = [];
      for (const t of tables) {
        const collection = collections.get(t.name);
        if (!collection) continue;
        const key = findableKey(t);
        if (key === undefined) {
          failures.push(`${t.name}: served, by a key the test cannot find`);
          continue;
        }
        const columns: SqlColumn[] = [];
        const attributeOf = new Map<SqlColumn, string>();
        for (const a of collection.attributes) {
          // A column whose name is no JSON:API member name is served under the one start-up names.
          const renamed = warnings.find(
            (w) => w.table === t.name && w.reason.startsWith(`served as ${JSON.stringify(a)}:`),
          );
          const c = t.columns.find((col) => col.name === (renamed?.column ?? a));
          if (!c) failures.push(`${t.name}: attribute ${a} is no column of the table`);
          else if (!formOf(c.type)) failures.push(`${t.name}.${a}: no JSON form is known for SQL type ${c.type}`);
          else {
            columns.push(c);
            attributeOf.set(c, a);
          }
        }
        const select = [
          `${keyText(t)} as ${q('$key')}`,
          ...columns.map((c) => `${textOf(c, q(c.name))} as ${q(c.name)}`),
        ];
        for (const [sort, order, limit] of [
          [key, 'asc', 5],
          [`-${key}`, 'desc', 1],
        ] as const) {
          const path = `/api/${t.name}?sort=${encodeURIComponent(sort)}&page[size]=${limit}${collection.attributes.size ? `&${fieldset(t.name, [...collection.attributes])}` : ''}`;
          const [rows, res] = await Promise.all([
            sql!.rows(`select ${select.join(', ')} from ${q(t.name)} order by ${q(key)} ${order} limit ${limit}`),
            http.get(path).catch(async (error: Error) => {
              // An answer the JSON:API schema refuses is one failure; its values are still compared.
              failures.push(`${t.name}: GET ${path}: ${brief(error)}`);
              const raw = await fetch(`${http.origin}${path}`, { headers: { accept: http.mediaType } });
              const text = await raw.text();
              return { status: raw.status, text, body: JSON.parse(text) };
            }),
          ]);
          if (res.status !== 200) {
            failures.push(`${t.name}: GET ${path}: ${res.status} ${res.text.slice(0, 400)}`);
            continue;
          }
          const data: any[] = res.body.data;
          const ids = data.map((r) => r.id);
          if (
            !isDeepStrictEqual(
              ids,
              rows.map((r) => r.$key),
            )
          ) {
            failures.push(`${t.name}: sorted by ${sort}, ids ${show(ids)}; SQL ${show(rows.map((r) => r.$key))}`);
            continue;
          }
          rows.forEach((row, i) => {
            const attributes = data[i].attributes ?? {};
            for (const c of columns) {
              const expected = expectedJson(c, row[c.name]!);
              const served = attributes[attributeOf.get(c)!];
              if (!isDeepStrictEqual(served, expected))
                failures.push(
                  `${t.name} ${key}=${row.$key} ${c.name} (${c.type}): expected ${show(expected)}, got ${show(served)}`,
                );
            }
            for (const a of Object.keys(attributes))
              if (!collection.attributes.has(a))
                failures.push(`${t.name} ${key}=${row.$key}: attribute ${a} not in the OpenAPI document`);
          });
        }
      }
      expectNone(failures, `values of ${where} not as SQL holds them`);
    });

    for (const w of run.writes) {
      const columns = Object.keys(w.attributes).join(', ');
      it(`writes and reads back values of type ${w.type} (${w.table}: ${columns})`, async () => {
        const t = byName.get(w.table);
        expect(t, `${where}: no table ${w.table}`).to.not.equal(undefined);
        expect(collections.has(w.table), `${where}: ${w.table} is not served`).to.equal(true);
        const key = t!.columns.find((c) => c.name === findableKey(t!))!;
        const { found } = await findRelationships();
        const relationships: Record<string, unknown> = {};
        for (const [column, id] of Object.entries(w.links ?? {})) {
          const name = found.get(`${w.table}.${column}`);
          expect(name, `${where}: ${w.table}.${column} is served as no relationship`).to.not.equal(undefined);
          const fk = t!.foreignKeys.find((k) => k.columns[0] === column)!;
          relationships[name!] = { data: { type: fk.table, id } };
        }
        // A key the database does not number is the client's to choose.
        const [{ next }] = key.autoIncrement
          ? [{ next: undefined }]
          : await sql!.rows(`select ${sql!.select(`max(${q(key.name)}) + 1000`, 'text')} as next from ${q(w.table)}`);
        const created = await http.post(`/api/${w.table}`, {
          data: {
            type: w.table,
            ...(next ? { id: String(Number(next)) } : {}),
            attributes: { ...w.also, ...w.attributes },
            ...(Object.keys(relationships).length ? { relationships } : {}),
          },
        });
        expect(created.status, `${where}: POST /api/${w.table}: ${created.text.slice(0, 500)}`).to.equal(201);
        const id: string = created.body.data.id;
        try {
          const failures: string[] = [];
          const read = await resource(w.table, id, Object.keys(w.attributes));
          const [row] = await sql!.rows(
            `select ${Object.keys(w.attributes)
              .map((a) => `${textOf(t!.columns.find((c) => c.name === a)!, q(a))} as ${q(a)}`)
              .join(', ')} from ${q(w.table)} where ${q(key.name)} = ?`,
            [id],
          );
          for (const [a, value] of Object.entries(w.attributes)) {
            const c = t!.columns.find((col) => col.name === a)!;
            if (!isDeepStrictEqual(read.attributes?.[a], value))
              failures.push(
                `${w.table} ${id} ${a} (${c.type}): wrote ${show(value)}, read ${show(read.attributes?.[a])}`,
              );
            if (!isDeepStrictEqual(expectedJson(c, row![a]!), value))
              failures.push(`${w.table} ${id} ${a} (${c.type}): wrote ${show(value)}, SQL holds ${show(row![a])}`);
          }
          expectNone(failures, `values of ${where} not read back as written`);
        } finally {
          const deleted = await http.delete(`/api/${w.table}/${id}`);
          if (deleted.status !== 204) {
            await sql!.rows(`delete from ${q(w.table)} where ${q(key.name)} = ?`, [id]).catch(() => undefined);
            expect.fail(`${where}: DELETE /api/${w.table}/${id}: ${deleted.status} ${deleted.text.slice(0, 300)}`);
          }
        }
      });
    }
  });
}

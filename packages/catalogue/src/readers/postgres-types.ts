import type { ColumnType } from '@colapi/schema';
import type { MappedType } from '../catalogue.js';

/** A PostgreSQL type as `format_type` names it, e.g. `character varying(100)`, `timestamp(3) without time zone`. */
const TYPES: readonly (readonly [RegExp, ColumnType])[] = [
  [/^(smallint|integer|bigint)$/, 'integer'],
  [/^(real|double precision)$/, 'number'],
  [/^(numeric(\(\d+(,\d+)?\))?|money)$/, 'decimal'],
  [/^boolean$/, 'boolean'],
  // Collatable text only: the compiler compares text under `collate "C"`.
  [/^(character varying|character|text|citext|name)(\(\d+\))?$/, 'string'],
  [/^uuid$/, 'uuid'],
  [/^bytea$/, 'binary'],
  [/^date$/, 'date'],
  [/^time(\(\d\))? without time zone$/, 'time'],
  [/^timestamp(\(\d\))? without time zone$/, 'datetime'],
  [/^timestamp(\(\d\))? with time zone$/, 'datetimetz'],
  [/^interval\b/, 'interval'],
  [/^(inet|cidr)$/, 'inet'],
  [/^jsonb?$/, 'json'],
];

/**
 * Types served as their text, PostgreSQL's own output, and compared as text: a value written is cast back by
 * the column. `tsvector` is derived data (a search index of other columns): read-only.
 */
const AS_TEXT = /^(time(\(\d\))? with time zone|macaddr8?|xml|tsvector|tsquery|bit( varying)?(\(\d+\))?)$/;
const READ_ONLY_TEXT = /^(tsvector|tsquery)$/;
/** Element types an array is served with: they have a JSON form PostgreSQL's `to_json` writes exactly. */
const ARRAY_ITEMS: ReadonlySet<ColumnType> = new Set([
  'integer',
  'number',
  'string',
  'boolean',
  'uuid',
  'enum',
  'date',
]);

/** What the catalogue knows of a column's type besides its name. */
export interface PostgresTypeInfo {
  /** pg_type.typtype of the type (of a domain's base type): `b` base, `e` enum, `r` range, `m` multirange… */
  readonly kind?: string;
  /** Of an array's element type. */
  readonly elementKind?: string | null;
  /** The labels of an enum (or of an array's enum elements), in their order. */
  readonly enumValues?: readonly string[] | null;
}

/** The project's type of a PostgreSQL column, with what it needs; undefined type for one the project has none for. */
export function postgresType(sqlType: string, info: PostgresTypeInfo = {}): MappedType {
  const array = /^(.+)\[\]$/.exec(sqlType);
  if (array) {
    const item = scalarType(array[1]!, { kind: info.elementKind ?? undefined, enumValues: info.enumValues });
    if (item.type === undefined || !ARRAY_ITEMS.has(item.type)) return { type: undefined };
    return {
      type: 'array',
      detail: { items: item.type, sqlType, ...(item.detail?.values ? { values: item.detail.values } : {}) },
    };
  }
  return scalarType(sqlType, info);
}

function scalarType(sqlType: string, info: PostgresTypeInfo): MappedType {
  if (info.kind === 'e') return { type: 'enum', detail: { values: [...(info.enumValues ?? [])], sqlType } };
  // A range or multirange: its text form (`[2024-01-01,2024-02-01)`), cast back by the column on writes.
  if (info.kind === 'r' || info.kind === 'm') return { type: 'string', detail: { sqlType } };
  // An extension's type may come qualified by its schema (`public.citext`).
  const t = sqlType.replace(/^[a-z_][a-z0-9_]*\./, '');
  if (t === 'money') return { type: 'decimal', detail: { scale: 2, sqlType: 'money' } };
  if (AS_TEXT.test(t))
    return { type: 'string', detail: { sqlType, ...(READ_ONLY_TEXT.test(t) ? { readOnly: true } : {}) } };
  const type = TYPES.find(([pattern]) => pattern.test(t))?.[1];
  if (type === 'decimal') {
    const m = /\((\d+)(?:,(\d+))?\)$/.exec(t);
    return { type, ...(m ? { detail: { precision: Number(m[1]), scale: Number(m[2] ?? 0) } } : {}) };
  }
  if (type === 'json') return { type, detail: { sqlType: t } };
  const length = type === 'string' ? /\((\d+)\)$/.exec(t)?.[1] : undefined;
  return length === undefined ? { type } : { type, maxLength: Number(length) };
}

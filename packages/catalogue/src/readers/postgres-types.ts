import type { ColumnType } from '@colapi/schema';

/** A PostgreSQL type as `format_type` names it, e.g. `character varying(100)`, `timestamp(3) without time zone`. */
const TYPES: readonly (readonly [RegExp, ColumnType])[] = [
  [/^(smallint|integer|bigint)$/, 'integer'],
  [/^(real|double precision|numeric(\(\d+(,\d+)?\))?)$/, 'number'],
  [/^boolean$/, 'boolean'],
  // Collatable text only: the compiler compares text under `collate "C"`, which uuid or an enum refuse.
  [/^(character varying|character|text|citext)(\(\d+\))?$/, 'string'],
  [/^date$/, 'date'],
  [/^time(\(\d\))? without time zone$/, 'time'],
  // With a time zone, PostgreSQL answers an offset the wire format has no place for: left out.
  [/^timestamp(\(\d\))? without time zone$/, 'datetime'],
  [/^interval\b/, 'interval'],
  [/^(inet|cidr)$/, 'inet'],
  [/^jsonb?$/, 'json'],
];

/** The project's type of a PostgreSQL column, with its length limit; undefined for a type the project has none for. */
export function postgresType(sqlType: string): { type: ColumnType | undefined; maxLength?: number } {
  // An extension's type may come qualified by its schema (`public.citext`).
  const t = sqlType.replace(/^[a-z_][a-z0-9_]*\./, '');
  const type = TYPES.find(([pattern]) => pattern.test(t))?.[1];
  const length = type === 'string' ? /\((\d+)\)$/.exec(t)?.[1] : undefined;
  return length === undefined ? { type } : { type, maxLength: Number(length) };
}

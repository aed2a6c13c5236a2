import type { MappedType, TypeDetail } from '../catalogue.js';

/**
 * The fraction digits of a second a date and time column keeps: `n` of `datetime(n)`, `timestamp(n) …`,
 * `time(n) …`, else what the database keeps without one (`undeclared`: MariaDB 0, PostgreSQL 6, SQLite any);
 * undefined for another type.
 */
export function declaredFraction(sqlType: string, undeclared: number | undefined): number | undefined {
  const m = /^\s*(?:datetime|timestamp|time)\s*(?:\(\s*(\d)\s*\))?(?:\s|$)/i.exec(sqlType);
  return m ? (m[1] === undefined ? undeclared : Number(m[1])) : undefined;
}

/**
 * A mapped type with more detail: for a `datetime` or `time`, fraction digits of a second below the wire's six
 * (`fractionDigits`: writes are rounded to them); other details as given.
 */
export function withDetail(mapped: MappedType, more: TypeDetail): MappedType {
  const { fractionDigits, ...rest } = more;
  const timed = mapped.type === 'datetime' || mapped.type === 'time';
  const digits = timed && fractionDigits !== undefined && fractionDigits < 6 ? { fractionDigits } : {};
  const detail = { ...mapped.detail, ...rest, ...digits };
  return Object.keys(detail).length ? { ...mapped, detail } : mapped;
}

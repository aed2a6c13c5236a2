/**
 * `numeric(10,2)`, `decimal(10,2) unsigned`, `NUMERIC(10, 2)`: the digits a column holds in all and after the
 * point, as every database names them in the declared type; nothing where it declares none (PostgreSQL's
 * bare `numeric`, SQLite's `NUMERIC`).
 */
export function decimalSize(sqlType: string): { precision?: number; scale?: number } {
  const m = /^\s*(?:numeric|decimal)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)/i.exec(sqlType);
  return m ? { precision: Number(m[1]), scale: Number(m[2] ?? 0) } : {};
}

/**
 * The fraction digits of a second a date and time column keeps: `n` of `datetime(n)`, `timestamp(n) …`,
 * `time(n) …`, else what the database keeps without one (`undeclared`: MariaDB 0, PostgreSQL 6, SQLite any);
 * undefined for another type.
 */
export function declaredFraction(sqlType: string, undeclared: number | undefined): number | undefined {
  const m = /^\s*(?:datetime|timestamp|time)\s*(?:\(\s*(\d)\s*\))?(?:\s|$)/i.exec(sqlType);
  return m ? (m[1] === undefined ? undeclared : Number(m[1])) : undefined;
}

/** What a declared type bounds: the digits of an exact number, the range of a whole-number type. */
export interface DeclaredSize {
  readonly precision?: number;
  readonly scale?: number;
  readonly minimum?: number;
  readonly maximum?: number;
}

/** Signed ranges of the whole-number types, by their names on the three databases. */
const INTEGERS: Readonly<Record<string, readonly [number, number]>> = {
  tinyint: [-(2 ** 7), 2 ** 7 - 1],
  smallint: [-(2 ** 15), 2 ** 15 - 1],
  int2: [-(2 ** 15), 2 ** 15 - 1],
  mediumint: [-(2 ** 23), 2 ** 23 - 1],
  int: [-(2 ** 31), 2 ** 31 - 1],
  integer: [-(2 ** 31), 2 ** 31 - 1],
  int4: [-(2 ** 31), 2 ** 31 - 1],
  // Past 2^53 an integer travels as its digits (exact); the bounds, as doubles, tell OpenAPI so.
  bigint: [-(2 ** 63), 2 ** 63 - 1],
  int8: [-(2 ** 63), 2 ** 63 - 1],
};

/**
 * The size a column's declared type gives, read from the type as the database prints it (PostgreSQL's
 * `format_type`, MariaDB's `column_type`, SQLite's declaration), which already carries it: `numeric(10,2)`,
 * `decimal(5,0) unsigned`, `smallint`, `int(10) unsigned`. A numeric without precision holds any number;
 * information_schema's numeric_precision would also give the binary precision of integer types and floats.
 * SQLite keeps what it is given: its declared sizes are held to as the other databases hold them.
 */
export function declaredSize(sqlType: string): DeclaredSize {
  const t = sqlType.trim().toLowerCase();
  const exact = /^(?:numeric|decimal)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)/.exec(t);
  if (exact) return { precision: Number(exact[1]), scale: Number(exact[2] ?? 0) };
  const whole =
    /^(tinyint|smallint|int2|mediumint|int|integer|int4|bigint|int8)(?:\s*\(\s*\d+\s*\))?(\s+unsigned)?(?:\s+zerofill)?$/.exec(
      t,
    );
  const range = whole && INTEGERS[whole[1]!];
  if (!whole || !range) return {};
  if (!whole[2]) return { minimum: range[0], maximum: range[1] };
  return { minimum: 0, maximum: range[1] * 2 + 1 };
}

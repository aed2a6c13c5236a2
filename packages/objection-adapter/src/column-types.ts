import type { ColumnType } from '@colapi/schema';

interface JsonSchemaProperty {
  type?: string | string[];
  format?: string;
}

/** A column type from a JSON Schema property of an Objection model. */
export function typeFromJsonSchema(property: JsonSchemaProperty): { type: ColumnType; nullable: boolean } {
  const types = Array.isArray(property.type) ? property.type : property.type ? [property.type] : [];
  const nullable = types.includes('null') || types.length === 0;
  const main = types.find((t) => t !== 'null') ?? 'string';
  const format = property.format;
  let type: ColumnType;
  if (main === 'integer') type = 'integer';
  else if (main === 'number') type = 'number';
  else if (main === 'boolean') type = 'boolean';
  else if (main === 'object' || main === 'array') type = 'json';
  else if (format === 'date') type = 'date';
  else if (format === 'time') type = 'time';
  else if (format === 'date-time') type = 'datetime';
  else if (format === 'ipv4' || format === 'ipv6') type = 'inet';
  else if (format === 'uuid') type = 'uuid';
  else type = 'string';
  return { type, nullable };
}

/** A column type from the type name the database reports (knex `columnInfo`). */
export function typeFromDatabase(sqlType: string): ColumnType {
  const t = sqlType.toLowerCase();
  if (/interval/.test(t)) return 'interval';
  if (/^(inet|cidr)/.test(t)) return 'inet';
  if (/timestamp|datetime/.test(t)) return 'datetime';
  if (/^date$/.test(t)) return 'date';
  if (/^time/.test(t)) return 'time';
  if (/^bool|^tinyint\(1\)/.test(t)) return 'boolean';
  if (/int|serial/.test(t)) return 'integer';
  if (/real|double|float|numeric|decimal/.test(t)) return 'number';
  if (/json/.test(t)) return 'json';
  if (t === 'uuid') return 'uuid';
  return 'string';
}

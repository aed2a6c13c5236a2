/** SQL: the names of a relation's columns with these attribute numbers, in their order, as JSON (node-postgres parses it). */
export const columnNames = (
  relation: string,
  numbers: string,
  first = '',
) => `(select json_agg(a.attname order by k.i) from unnest(${numbers}) with ordinality k(n, i)
    join pg_catalog.pg_attribute a on a.attrelid = ${relation} and a.attnum = k.n${first ? ` where k.i <= ${first}` : ''})`;

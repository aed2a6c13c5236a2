import type { ColumnSchema } from './column.js';
import type { ModelSchema, VirtualAttribute } from './model.js';
import type { RelationshipSchema } from './relationship.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/** How `meta.total` is obtained: an exact count, the planner's estimate where the dialect has one, or none. */
export type TotalMode = 'exact' | 'estimated' | 'none';

/** How Format A pages a collection by default: by `page[number]`, or by cursor (the cursor pagination profile). */
export type PagingMode = 'number' | 'cursor';

/** Registration options of one collection; the snake_case names are those of the specification. */
export interface CollectionOptions {
  /** The collection name in URLs and the JSON:API `type`; default the model's table name. */
  name?: string;
  methods?: readonly HttpMethod[];
  allow_functions?: boolean;
  allow_client_generated_ids?: boolean;
  /** Only these fields (columns or relationships) appear. */
  only?: readonly string[];
  /** Every field but these appears. */
  exclude?: readonly string[];
  /** Virtual attributes of the model that appear too. */
  additional_attributes?: readonly string[];
  /** Refuse PATCH of a whole to-many relationship with 403 (JSON:API allows a server to). */
  allow_to_many_replacement?: boolean;
  /** Refuse DELETE from a to-many relationship with 403. */
  allow_to_many_removal?: boolean;
  total?: TotalMode;
  /** `cursor`: Format A pages the collection by cursor even when the request names no cursor; default `number`. */
  paging?: PagingMode;
}

/** A published collection: a model plus what of it the API exposes and allows. */
export interface CollectionSchema {
  readonly name: string;
  readonly model: ModelSchema;
  readonly methods: ReadonlySet<HttpMethod>;
  readonly allowFunctions: boolean;
  readonly allowClientGeneratedIds: boolean;
  readonly allowToManyReplacement: boolean;
  readonly allowToManyRemoval: boolean;
  readonly total: TotalMode;
  readonly paging: PagingMode;
  /** The total a page read by cursor tells: `total` as registered, none when unset (counting costs what a keyset read saves). */
  readonly cursorTotal: TotalMode;
  /** Exposed columns, in model order; always includes the key. */
  readonly columns: ReadonlyMap<string, ColumnSchema>;
  readonly relationships: ReadonlyMap<string, RelationshipSchema>;
  readonly virtualAttributes: ReadonlyMap<string, VirtualAttribute>;
}

export function defineCollection(model: ModelSchema, options: CollectionOptions = {}): CollectionSchema {
  const name = options.name ?? model.table;
  const known = (field: string) =>
    model.columns.has(field) || model.relationships.has(field) || model.virtualAttributes.has(field);
  for (const field of [...(options.only ?? []), ...(options.exclude ?? [])]) {
    if (!known(field)) throw new Error(`collection ${name}: "${field}" is not a field of model ${model.name}`);
  }
  const only = options.only ? new Set(options.only) : undefined;
  const exclude = new Set(options.exclude ?? []);
  const shown = (field: string) => (!only || only.has(field)) && !exclude.has(field);

  const columns = new Map<string, ColumnSchema>();
  for (const [n, c] of model.columns) if (n === model.key || shown(n)) columns.set(n, c);
  const relationships = new Map([...model.relationships].filter(([n]) => shown(n)));
  const virtualAttributes = new Map<string, VirtualAttribute>();
  for (const n of options.additional_attributes ?? []) {
    const v = model.virtualAttributes.get(n);
    if (!v) throw new Error(`collection ${name}: "${n}" is not a virtual attribute of model ${model.name}`);
    if (shown(n)) virtualAttributes.set(n, v);
  }
  return Object.freeze({
    name,
    model,
    methods: new Set<HttpMethod>(options.methods ?? ['GET', 'POST', 'PATCH', 'DELETE']),
    allowFunctions: options.allow_functions ?? false,
    allowClientGeneratedIds: options.allow_client_generated_ids ?? false,
    allowToManyReplacement: options.allow_to_many_replacement ?? true,
    allowToManyRemoval: options.allow_to_many_removal ?? true,
    total: options.total ?? 'exact',
    paging: options.paging ?? 'number',
    cursorTotal: options.total ?? 'none',
    columns,
    relationships,
    virtualAttributes,
  });
}

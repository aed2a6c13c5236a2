import {
  defineModel,
  HTTP_METHODS,
  Registry,
  type CollectionRegistration,
  type HttpMethod,
  type ModelSchema,
  type RelationshipSchema,
} from '@colapi/schema';
import type { Catalogue, CatalogueTable } from './catalogue.js';
import type { CatalogueConfig, CollectionConfig, TableConfig } from './config.js';
import { CatalogueConfigError } from './config-error.js';
import { deriveRelationships, type ModelTable } from './derive-relationships.js';
import { joinTableKeys } from './join-table.js';
import { modelName } from './naming.js';
import { allowedMethods, joinReadable, lackingText, roleName, unreadable, type Allowed } from './privileges.js';
import { joinColumns, servedColumns, type ServedColumns } from './served-model.js';

/** Tables of knex's migrations: bookkeeping of a tool, not data; served only when `expose` lists them. */
const TOOL_TABLES: ReadonlySet<string> = new Set(['knex_migrations', 'knex_migrations_lock']);

interface ServedTable extends ServedColumns {
  readonly table: CatalogueTable;
  readonly model: string;
}

export interface CatalogueRegistry {
  readonly registry: Registry;
  /** One model per served table, by table name. */
  readonly models: ReadonlyMap<string, ModelSchema>;
  /** What was left out and why, one line each: `table.column: reason`. */
  readonly warnings: readonly string[];
}

/**
 * Turns a catalogue and a configuration into the registry of a server: a model per table or view it can
 * serve (views are read-only), relationships from foreign keys and join tables (see deriveRelationships),
 * and the collections with their registration options. What cannot be served is left out with a warning;
 * a configuration that does not fit the catalogue throws a CatalogueConfigError naming the place.
 */
export function registryFromCatalogue(catalogue: Catalogue, config: CatalogueConfig = {}): CatalogueRegistry {
  const warnings: string[] = [];
  const warn = (table: string, message: string, column?: string) =>
    warnings.push(`${table}${column === undefined ? '' : `.${column}`}: ${message}`);
  const byName = new Map(catalogue.tables.map((t) => [t.name, t]));
  for (const name of Object.keys(config.tables ?? {})) {
    if (!byName.has(name))
      throw new CatalogueConfigError(`tables.${name}`, `no table or view "${name}" in ${where(catalogue)}`);
  }
  (config.expose ?? []).forEach((name, i) => {
    if (!byName.has(name))
      throw new CatalogueConfigError(`expose[${i}]`, `no table or view "${name}" in ${where(catalogue)}`);
  });
  const settings = (t: string): TableConfig => config.tables?.[t] ?? {};
  const hidden = new Set(catalogue.tables.filter((t) => settings(t.name).hidden).map((t) => t.name));
  const exposed = config.expose ? new Set(config.expose) : undefined;
  const candidates = catalogue.tables.filter(
    (t) => !hidden.has(t.name) && (exposed ? exposed.has(t.name) : !TOOL_TABLES.has(t.name)),
  );

  const fixed = joinColumns(catalogue.tables);
  const served = new Map<string, ServedTable>();
  const modelNames = new Set<string>();
  for (const t of candidates) {
    const join = joinTableKeys(t);
    if (join && settings(t.name).key === undefined) {
      // A join table is a relationship, not a collection; say so only when it was asked for.
      if (exposed)
        warn(
          t.name,
          `a join table: served as the many-to-many relationships of ${join[0].table} and ${join[1].table}, not as a collection`,
        );
      // Its other columns (Pagila's and Sakila's last_update) have no place in a relationship: named, not dropped silently.
      const linking = new Set([...join[0].columns, ...join[1].columns]);
      for (const c of t.columns.filter((x) => !linking.has(x.name)))
        warn(
          t.name,
          `a column of a join table, which is served as the many-to-many relationships of ${join[0].table} and ${join[1].table}: not served`,
          c.name,
        );
      continue;
    }
    const refused = unreadable(t, catalogue.role);
    if (refused !== undefined) {
      warn(t.name, refused);
      continue;
    }
    const columns = servedColumns(t, settings(t.name), `tables.${t.name}`, fixed, (m, c) => warn(t.name, m, c));
    if (!columns) continue;
    if ((settings(t.name).collections?.[0]?.name ?? t.name) === 'eval') {
      warn(
        t.name,
        'the collection name "eval" is reserved for function evaluation; the table is left out (name its collection in tables.eval.collections)',
      );
      continue;
    }
    let model = modelName(t.name);
    if (modelNames.has(model)) model = t.name;
    modelNames.add(model);
    served.set(t.name, { table: t, model, key: columns.key, keyColumns: columns.keyColumns, columns: columns.columns });
    const partitions = partitionsNote(t, columns.key, settings(t.name).key !== undefined);
    if (partitions) warn(...partitions);
  }

  const modelTables = new Map<string, ModelTable>(
    [...served].map(([name, s]) => [
      name,
      { table: s.table, model: s.model, columns: new Set(s.columns.map((c) => c.name)) },
    ]),
  );
  // A join table the role cannot read gives no relationships; said only where both ends are served.
  for (const t of catalogue.tables) {
    const keys = hidden.has(t.name) || served.has(t.name) ? undefined : joinTableKeys(t);
    if (!keys || !served.has(keys[0].table) || !served.has(keys[1].table)) continue;
    if (joinReadable(t, [keys[0].columns[0]!, keys[1].columns[0]!])) continue;
    warn(
      t.name,
      `${roleName(catalogue.role)} may not read this join table; the many-to-many relationships of ${keys[0].table} and ${keys[1].table} are left out`,
    );
    hidden.add(t.name);
  }
  const relationships = deriveRelationships(modelTables, catalogue.tables, hidden, (t, m) => warn(t, m));

  const models = new Map<string, ModelSchema>();
  const registrations: CollectionRegistration[] = [];
  for (const [name, s] of served) {
    const path = `tables.${name}`;
    const rels = configuredRelationships(
      relationships.get(name) ?? [],
      settings(name),
      path,
      new Set(s.columns.map((c) => c.name)),
    );
    const model = defineModel({
      name: s.model,
      table: name,
      key: s.key,
      ...(s.keyColumns ? { keyColumns: s.keyColumns } : {}),
      columns: [...s.columns],
      relationships: rels,
    });
    models.set(name, model);
    const joins = rels.flatMap((r) => (r.join.kind === 'through' ? [byName.get(r.join.through.table)!] : []));
    const allowed = allowedMethods(s.table, s.columns, s.keyColumns ?? [s.key], joins);
    const list = collections(s.table, model, settings(name), path, allowed);
    const withheld = HTTP_METHODS.filter((m) => list.some((r) => r.withheld.includes(m)));
    if (withheld.length > 0)
      warn(
        name,
        `${roleName(catalogue.role)} lacks ${lackingText(allowed)}; ${withheld.join(', ')} ${withheld.length === 1 ? 'is' : 'are'} not served`,
      );
    for (const { registration } of list) registrations.push(registration);
  }
  return { registry: registryOf(registrations), models, warnings };
}

/** Partitions named in the line that says they are served through their table; the rest are counted. */
const PARTITIONS_NAMED = 10;

/**
 * The line saying that a served partitioned table's partitions are served through it, not as tables of their
 * own, and, when its key is one its partitions declare, that the database holds it unique only within each.
 */
function partitionsNote(table: CatalogueTable, key: string, configured: boolean): [string, string] | undefined {
  const all = table.partitions ?? [];
  if (all.length === 0) return undefined;
  const named = all.slice(0, PARTITIONS_NAMED).join(', ');
  const names = all.length > PARTITIONS_NAMED ? `${named} and ${all.length - PARTITIONS_NAMED} more` : named;
  const what = all.length === 1 ? 'a partition' : 'partitions';
  const byPartitions =
    !configured &&
    table.primaryKey.length === 0 &&
    !table.uniques.some((u) => u.length === 1 && u[0] === key) &&
    (table.partitionKeys ?? []).some((k) => k.length === 1 && k[0] === key);
  const unkeyed = table.unkeyedPartitions ?? [];
  const declaring =
    unkeyed.length === 0
      ? 'each partition'
      : `each partition that declares one (${unkeyed.join(', ')} declare${unkeyed.length === 1 ? 's' : ''} none)`;
  const keyed = byPartitions
    ? `; keyed by ${key}, a key of ${declaring}, which PostgreSQL holds unique within a partition only`
    : '';
  return [names, `${what} of ${table.name}, served through it${keyed}`];
}

function where(catalogue: Catalogue): string {
  // MariaDB/MySQL call a database a schema too (information_schema.schemata).
  return catalogue.schema === undefined ? 'the database' : `schema ${catalogue.schema}`;
}

/** Renames and hides relationships as the table's `relationships` says, by their derived names. */
function configuredRelationships(
  derived: readonly RelationshipSchema[],
  config: TableConfig,
  path: string,
  columns: ReadonlySet<string>,
): RelationshipSchema[] {
  const known = new Set(derived.map((r) => r.name));
  for (const name of Object.keys(config.relationships ?? {})) {
    if (!known.has(name)) {
      const list = known.size ? [...known].join(', ') : 'none';
      throw new CatalogueConfigError(
        `${path}.relationships.${name}`,
        `no relationship "${name}" is derived for this table (derived: ${list})`,
      );
    }
  }
  const out: RelationshipSchema[] = [];
  const names = new Set(columns);
  for (const r of derived) {
    const settings = config.relationships?.[r.name] ?? {};
    if (settings.hidden) continue;
    const name = settings.name ?? r.name;
    if (names.has(name))
      throw new CatalogueConfigError(
        `${path}.relationships.${r.name}.name`,
        `"${name}" is already the name of a field of this table`,
      );
    names.add(name);
    out.push({ ...r, name });
  }
  return out;
}

const READ_ONLY: readonly HttpMethod[] = ['GET'];

/**
 * The collections of one table: as configured, or one named after the table; a view's are read-only. Methods
 * the role's privileges do not allow are withheld.
 */
function collections(
  table: CatalogueTable,
  model: ModelSchema,
  config: TableConfig,
  path: string,
  allowed: Allowed,
): { registration: CollectionRegistration; withheld: readonly HttpMethod[] }[] {
  const list: readonly CollectionConfig[] = config.collections ?? [{}];
  if (list.length === 0)
    throw new CatalogueConfigError(
      `${path}.collections`,
      'list at least one collection, or hide the table with "hidden": true',
    );
  const fields = new Set([...model.columns.keys(), ...model.relationships.keys()]);
  // A composite key has no column the database numbers (servedColumns): its parts are the client's.
  const generatedKey = model.keyColumns.length === 1 && model.columns.get(model.key)!.generated === true;
  return list.map((options, i) => {
    const at = `${path}.collections[${i}]`;
    if (i > 0 && options.name === undefined)
      throw new CatalogueConfigError(`${at}.name`, 'every collection but the first of a table needs a name');
    for (const list of ['only', 'exclude'] as const) {
      (options[list] ?? []).forEach((field, j) => {
        if (!fields.has(field))
          throw new CatalogueConfigError(
            `${at}.${list}[${j}]`,
            `"${field}" is not a field of ${table.name} (fields: ${[...fields].join(', ')})`,
          );
      });
    }
    const asked = options.methods ?? (table.kind === 'view' ? READ_ONLY : HTTP_METHODS);
    if (table.kind === 'view' && asked.some((m) => m !== 'GET')) {
      throw new CatalogueConfigError(`${at}.methods`, `${table.name} is a view, served read-only: GET only`);
    }
    const methods = asked.filter((m) => allowed.methods.has(m));
    const registration = {
      model,
      options: {
        ...options,
        name: options.name ?? table.name,
        methods,
        // A key the database does not number is the client's to choose.
        allow_client_generated_ids: options.allow_client_generated_ids ?? !generatedKey,
      },
    };
    return { registration, withheld: asked.filter((m) => !allowed.methods.has(m)) };
  });
}

/** The registry; a rule of the schema package broken by the configuration comes out as a config error. */
function registryOf(registrations: readonly CollectionRegistration[]): Registry {
  try {
    return new Registry(registrations);
  } catch (error) {
    throw new CatalogueConfigError('tables', (error as Error).message);
  }
}

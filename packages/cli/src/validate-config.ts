import { AuthConfigError, validateAuthConfig } from '@colapi/auth';
import type { CatalogueConfig } from '@colapi/catalogue';
import { COLUMN_TYPES, HTTP_METHODS } from '@colapi/schema';
import { corsProblem, type CorsOptions } from '@colapi/server-koa';

/** A configuration file that is not what `colapi serve` reads; the message names the file and the place in it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * What a configuration file holds: the catalogue's settings, and access control's `auth` and `roles`, both
 * or neither. `auth` and `roles` are kept as written, for createApi's `access`: `auth` has passed
 * @colapi/auth's validateAuthConfig; `roles` is an object keyed by role, whose rules are checked against
 * the collections served (`checkAccess`), which only the catalogue tells.
 */
export interface ColapiConfig extends CatalogueConfig {
  /** Seconds `colapi serve` keeps serving after SIGTERM, its readiness at 503 (`--grace` wins); default 5. */
  readonly grace?: number;
  /** Every write of an existing resource without If-Match is 428 (createApi's requireIfMatch). */
  readonly requireIfMatch?: boolean;
  readonly auth?: unknown;
  readonly roles?: Readonly<Record<string, unknown>>;
  /** Which browser pages may call the API: server-koa's CorsOptions. */
  readonly cors?: CorsOptions;
  /** Serves atomic operations at /api/operations (createApi's `atomic`). */
  readonly atomic?: boolean;
  /** The key Format A signs cursors with (cursor pagination); see --cursor-secret. */
  readonly cursorSecret?: string;
}

type Check = (value: unknown, path: string) => void;

const fail = (path: string, reason: string): never => {
  throw new ConfigError(`${path}: ${reason}`);
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const string: Check = (v, path) => {
  if (typeof v !== 'string' || v === '') fail(path, `must be a non-empty string, not ${JSON.stringify(v)}`);
};
const boolean: Check = (v, path) => {
  if (typeof v !== 'boolean') fail(path, `must be true or false, not ${JSON.stringify(v)}`);
};
const oneOf =
  (choices: readonly string[]): Check =>
  (v, path) => {
    if (typeof v !== 'string' || !choices.includes(v))
      fail(path, `must be one of ${choices.join(', ')}, not ${JSON.stringify(v)}`);
  };
const listOf =
  (item: Check): Check =>
  (v, path) => {
    if (!Array.isArray(v)) return fail(path, `must be a list, not ${JSON.stringify(v)}`);
    for (const [i, x] of v.entries()) item(x, `${path}[${i}]`);
  };
const mapOf =
  (entry: Check): Check =>
  (v, path) => {
    if (!isObject(v)) return fail(path, 'must be an object keyed by name');
    for (const [k, x] of Object.entries(v)) entry(x, `${path}.${k}`);
  };

/** An object with these settings only; an unknown one is named, with the known one it most resembles. */
const shape =
  (fields: Readonly<Record<string, Check>>): Check =>
  (v, path) => {
    if (!isObject(v)) return fail(path, `must be an object, not ${JSON.stringify(v)}`);
    for (const [k, x] of Object.entries(v)) {
      const check = fields[k];
      if (!check) {
        const near = closest(k, Object.keys(fields));
        fail(
          `${path}.${k}`,
          `unknown setting${near ? ` (did you mean ${near}?)` : ''}; known: ${Object.keys(fields).join(', ')}`,
        );
      }
      check!(x, `${path}.${k}`);
    }
  };

const collection = shape({
  name: string,
  methods: listOf(oneOf(HTTP_METHODS)),
  allow_functions: boolean,
  allow_client_generated_ids: boolean,
  only: listOf(string),
  exclude: listOf(string),
  allow_to_many_replacement: boolean,
  allow_to_many_removal: boolean,
  total: oneOf(['exact', 'estimated', 'none']),
  paging: oneOf(['number', 'cursor']),
});

const table = shape({
  hidden: boolean,
  key: string,
  columns: mapOf(shape({ name: string, hidden: boolean, type: oneOf(Object.keys(COLUMN_TYPES)) })),
  relationships: mapOf(shape({ name: string, hidden: boolean })),
  collections: listOf(collection),
});

const root = shape({
  // An editor's schema reference is allowed and ignored.
  $schema: string,
  schema: string,
  expose: listOf(string),
  tables: mapOf(table),
  cursorSecret: string,
  grace: (v, path) => {
    if (typeof v !== 'number' || !(v >= 0 && v <= 3600))
      fail(path, `must be a number of seconds from 0 to 3600, not ${JSON.stringify(v)}`);
  },
  // Checked whole by @colapi/auth below, with its own paths.
  auth: () => undefined,
  // Each role's rules need the collections served: checked when the catalogue has been read.
  roles: (v, path) => {
    if (!isObject(v)) fail(path, `must be an object keyed by role name, not ${JSON.stringify(v)}`);
  },
  cors: (v, path) => {
    const problem = corsProblem(v);
    if (problem) fail(problem.path ? `${path}.${problem.path}` : path, problem.reason);
  },
  atomic: boolean,
  requireIfMatch: boolean,
});

/** Checks the parsed JSON of a configuration file against what `colapi serve` reads. */
export function validateConfig(value: unknown, source: string): ColapiConfig {
  try {
    root(value, source);
    accessSettings(value as ColapiConfig, source);
  } catch (error) {
    // The root's own path is the file; the places under it read `file: tables.person.…`.
    if (error instanceof ConfigError) throw new ConfigError(error.message.replace(`${source}.`, `${source}: `));
    throw error;
  }
  const { $schema: _ignored, ...config } = value as ColapiConfig & { $schema?: string };
  return config;
}

/** `auth` and `roles` come together; `auth` is whole, and its anonymous role has rules. */
function accessSettings(config: ColapiConfig, source: string): void {
  if (config.auth === undefined && config.roles === undefined) return;
  if (config.auth === undefined)
    fail(
      `${source}.roles`,
      'access rules need "auth" beside them, to tell which role a request acts as (add "auth", or remove "roles")',
    );
  if (config.roles === undefined)
    fail(
      `${source}.auth`,
      'needs "roles" beside it: a role without rules may do nothing, so every request would be refused (add "roles", or remove "auth")',
    );
  let anonymous: string | undefined;
  try {
    ({ anonymous } = validateAuthConfig(config.auth, source));
  } catch (error) {
    // Its message is already `file: auth.jwt[0].secret: …`.
    if (error instanceof AuthConfigError) throw new ConfigError(error.message);
    throw error;
  }
  if (anonymous !== undefined && !Object.hasOwn(config.roles!, anonymous))
    fail(
      `${source}.auth.anonymous`,
      `the role ${JSON.stringify(anonymous)} has no rules in roles (known: ${Object.keys(config.roles!).join(', ') || 'none'})`,
    );
}

/** The known word nearest to a misspelt one (edit distance at most 3), if any. */
function closest(word: string, known: readonly string[]): string | undefined {
  let best: [string, number] | undefined;
  for (const k of known) {
    const d = distance(word.toLowerCase(), k.toLowerCase());
    if (d <= 3 && (!best || d < best[1])) best = [k, d];
  }
  return best?.[0];
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

import type { ApiOptions } from '@colapi/server-koa';
import type { ConnectOptions } from '@colapi/sql-compiler';
import { startConformanceTarget, type ConformanceTarget } from '../conformance-app.js';
import { createTestDatabase, testedKinds, type DatabaseKind, type TestDatabase } from './databases.js';
import { HttpClient } from './http-client.js';
import { checkJsonApiAnswersInEachTest, watchJsonApiAnswers } from './schema-watch.js';
import { seed, STANDARD_DATA, type SeedData } from './seed.js';

export interface TestTarget {
  readonly kind: DatabaseKind;
  readonly target: ConformanceTarget;
  readonly http: HttpClient;
  /** Replaces the table contents (default: the standard dataset). */
  seed(data?: SeedData): Promise<void>;
}

const shared = new Map<string, Promise<{ db: TestDatabase; target: ConformanceTarget }>>();
const owned: { db: TestDatabase; target: ConformanceTarget }[] = [];

async function start(
  kind: DatabaseKind,
  format: string,
  api?: Partial<ApiOptions>,
  connect?: ConnectOptions,
  prefix?: string,
) {
  const db = await createTestDatabase(kind, prefix);
  const target = await startConformanceTarget({
    url: db.url,
    format,
    ...(api ? { api } : {}),
    ...(connect ? { connect } : {}),
  });
  watchJsonApiAnswers(target.server);
  return { db, target };
}

/** Under CI (or REQUIRE_DATABASES=1) a database that cannot be reached fails the run instead of skipping. */
const mustReach = () => process.env.CI === 'true' || process.env.REQUIRE_DATABASES === '1';

export interface EachDatabaseOptions {
  readonly format?: string;
  /** createApi options for a dedicated server (hooks, limits); without them the server is shared. */
  readonly api?: Partial<ApiOptions>;
  /** Database connection options (a statement timeout); they too make the server dedicated. */
  readonly connect?: ConnectOptions;
  /** The dedicated server's database name begins with this (default `colapi_t`). */
  readonly prefix?: string;
  /** Seed the standard dataset once before the suite (default true). */
  readonly seed?: boolean;
  /** The databases a dialect feature exists on; the suite is left out on the others (not skipped). */
  readonly only?: readonly DatabaseKind[];
}

/**
 * Declares the same suite once per tested database, each against a real conformance server on
 * 127.0.0.1. `t()` gives the running target inside tests and hooks.
 */
export function describeEachDatabase(
  title: string,
  body: (t: () => TestTarget, kind: DatabaseKind) => void,
  options: EachDatabaseOptions = {},
): void {
  const format = options.format ?? 'jsonapi';
  for (const kind of testedKinds()) {
    if (options.only && !options.only.includes(kind)) continue;
    describe(`${title} [${kind}]`, () => {
      let current: TestTarget | undefined;
      before(async function () {
        this.timeout(120_000);
        let started: { db: TestDatabase; target: ConformanceTarget };
        try {
          if (options.api || options.connect) {
            started = await start(kind, format, options.api ?? {}, options.connect, options.prefix);
            owned.push(started);
          } else {
            const key = `${kind}/${format}`;
            if (!shared.has(key)) shared.set(key, start(kind, format));
            started = await shared.get(key)!;
          }
        } catch (error) {
          if (mustReach()) throw error;
          console.warn(`  ! ${kind} is not reachable (${(error as Error).message}); skipping "${title}" on it`);
          this.skip();
        }
        const { target } = started;
        current = {
          kind,
          target,
          http: new HttpClient(target.origin, target.format.mediaType),
          seed: (data = STANDARD_DATA) => seed(target.database.knex, target.database.dialect, data),
        };
        if (options.seed !== false) await current.seed();
      });
      body(() => {
        if (!current) throw new Error('the target is not started');
        return current;
      }, kind);
    });
  }
}

/**
 * Declares a test only where it applies (a dialect feature): an inapplicable case is left out, not reported
 * as pending.
 */
export function itWhen(applies: boolean, title: string, fn: Mocha.AsyncFunc): void {
  if (applies) it(title, fn);
}

/** Closes every server and drops every database this process made; registered as a root hook. */
export async function closeAllTargets(): Promise<void> {
  const all = [...owned.splice(0), ...(await Promise.all([...shared.values()].map((p) => p.catch(() => undefined))))];
  shared.clear();
  for (const s of all) {
    if (!s) continue;
    await s.target.close().catch(() => undefined);
    await s.db.drop().catch(() => undefined);
  }
}

// Each JSON:API answer of the servers above, whoever asked for it, is held to the JSON:API 1.0 schema.
checkJsonApiAnswersInEachTest();

// Dropping a database waits for its last connections; on a loaded machine that takes more than a test's time.
if (typeof after === 'function') {
  after(async function () {
    this.timeout(180_000);
    await closeAllTargets();
  });
}

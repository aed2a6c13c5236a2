import { connect, type Database } from '@colapi/sql-compiler';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { sizesAt } from './dataset.js';
import { loadRun, summarise, type LoadSettings, type RunResult, type Summary } from './load.js';
import type { BenchOptions } from './options.js';
import { startServer, type ServerProcess } from './processes.js';
import { mb, ratioOf } from './report.js';
import { JSONAPI, selectScenarios } from './scenarios.js';
import { removeCreatedRows, seedBenchData } from './seed.js';
import { ROOT } from './servers.js';
import { verifyScenario } from './verify.js';

/**
 * `pnpm bench --topology`: the conformance target with N cluster workers on a transaction-mode pooler
 * (`prepared_statements=false`) with read replicas (DATABASE_REPLICA_URLS), against the same target with N
 * workers directly on the primary alone, both running at once and loaded in alternating rounds like the
 * target and the baseline of the usual comparison. The bench database is created and seeded on the primary
 * and measured only once every replica has replayed it. What each server ran is counted on the server
 * (pg_stat_statements) around every measured run.
 */

const DATABASE = 'colapi_bench';
/** Ports of the two targets: apart from the usual comparison's 18081/18082, so both kinds can run at once. */
const PORTS = { topology: 18085, primary: 18086 } as const;
/** Pause after a run before its statements are counted. */
const SETTLE_MS = 300;
const TABLES = ['person', 'article', 'comment', 'tag', 'article_tag'] as const;

export interface TopologyUrls {
  readonly primary: string;
  readonly pooler?: string;
  readonly replicas: readonly string[];
}

/** Statements a server ran, by where they ran. */
export interface StatementCounts {
  readonly primary: number;
  readonly replicas: number;
}

export interface TopologyScenarioResult {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  /** On the pooler, reads outside writes on the replicas. */
  readonly topology: Summary;
  /** On the primary alone. */
  readonly primary: Summary;
  /** topology ÷ primary alone, the median of the rounds' ratios. */
  readonly ratio: { readonly rps: number; readonly p50: number; readonly p99: number };
  /** Statements run by each server during the measured runs of each leg (pg_stat_statements, summed over rounds). */
  readonly statements: { readonly topology: StatementCounts; readonly primary: StatementCounts };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function onDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

function withParam(url: string, key: string, value: string): string {
  const u = new URL(url);
  u.searchParams.set(key, value);
  return u.toString();
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/** The topology from the options, else from the variables `tools/pg-topology/topology.sh env` prints. */
export function topologyUrls(o: BenchOptions): TopologyUrls {
  const primary = o.primaryUrl ?? process.env.PG_PRIMARY_URL;
  if (!primary)
    throw new Error(
      '--topology needs --primary-url or PG_PRIMARY_URL (eval "$(bash tools/pg-topology/topology.sh env)")',
    );
  const pooler = o.poolerUrl ?? process.env.PG_BOUNCER_URL;
  const replicas = o.replicaUrls ?? (process.env.PG_REPLICA_URL ? process.env.PG_REPLICA_URL.split(',') : []);
  return {
    primary,
    ...(pooler && pooler !== 'none' ? { pooler } : {}),
    replicas: replicas.map((u) => u.trim()).filter((u) => u !== '' && u !== 'none'),
  };
}

/** Statements of one database since the last reset, leaving out the counting itself and the replicas' health checks. */
async function statementCount(db: Database): Promise<number> {
  const r = await db.knex.raw(
    `select coalesce(sum(calls), 0)::bigint::text as n from pg_stat_statements s join pg_database d on d.oid = s.dbid
     where d.datname = ? and s.query not ilike '%pg_stat_statements%' and s.query not ilike '%pg_is_in_recovery%'`,
    [DATABASE],
  );
  return Number(r.rows[0].n);
}

interface DatabaseActivity {
  readonly xactCommit: number;
  readonly tupReturned: number;
  readonly tupFetched: number;
}

async function databaseActivity(db: Database): Promise<DatabaseActivity> {
  const r = await db.knex.raw(
    `select xact_commit::text as c, tup_returned::text as r, tup_fetched::text as f from pg_stat_database where datname = ?`,
    [DATABASE],
  );
  const row = r.rows[0] ?? { c: 0, r: 0, f: 0 };
  return { xactCommit: Number(row.c), tupReturned: Number(row.r), tupFetched: Number(row.f) };
}

const minus = (a: DatabaseActivity, b: DatabaseActivity): DatabaseActivity => ({
  xactCommit: a.xactCommit - b.xactCommit,
  tupReturned: a.tupReturned - b.tupReturned,
  tupFetched: a.tupFetched - b.tupFetched,
});

/** Creates the bench database on the primary when missing (through the primary's own database of the URL). */
async function createDatabase(primary: string): Promise<void> {
  const admin = connect(primary, { pool: { min: 0, max: 1 }, acquireConnectionTimeout: 5000 });
  try {
    const found = await admin.knex.raw('select 1 from pg_database where datname = ?', [DATABASE]);
    if (found.rows.length === 0) await admin.knex.raw(`create database ${DATABASE}`);
  } finally {
    await admin.knex.destroy();
  }
}

/**
 * Waits until every replica has the bench database, is a standby, has replayed the primary's WAL up to now,
 * and holds the dataset's rows (at most 2 minutes). Answers a connection to each.
 */
async function replicated(
  primary: Database,
  urls: readonly string[],
  log: (line: string) => void,
): Promise<Database[]> {
  const lsn: string = (await primary.knex.raw('select pg_current_wal_insert_lsn()::text as l')).rows[0].l;
  const deadline = Date.now() + 120_000;
  const started = Date.now();
  const out: Database[] = [];
  for (const url of urls) {
    let db: Database | undefined;
    let last = '';
    while (!db) {
      if (Date.now() > deadline)
        throw new Error(`${redact(url)} did not get the bench database within 2 minutes: ${last}`);
      const candidate = connect(url, {
        pool: { min: 0, max: 1 },
        acquireConnectionTimeout: 5000,
        log: { warn: () => undefined },
      });
      try {
        await candidate.knex.raw('select 1');
        db = candidate;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
        await candidate.knex.destroy();
        await sleep(200);
      }
    }
    out.push(db);
    for (;;) {
      const r = await db.knex.raw(
        'select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn() >= ?::pg_lsn as replayed',
        [lsn],
      );
      if (!r.rows[0].standby) throw new Error(`${redact(url)} is not a standby (pg_is_in_recovery() is false)`);
      if (r.rows[0].replayed) break;
      if (Date.now() > deadline)
        throw new Error(`${redact(url)} did not replay the primary's WAL up to ${lsn} within 2 minutes`);
      await sleep(100);
    }
    const sizes = sizesAt(1);
    for (const t of TABLES) {
      const n = Number((await db.knex.raw(`select count(*)::int as n from ${t}`)).rows[0].n);
      if (n !== sizes[t]) throw new Error(`${redact(url)} holds ${n} ${t} rows after replay, not ${sizes[t]}`);
    }
    log(
      `replica ${redact(url)} has replayed the primary up to ${lsn} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
  return out;
}

interface Leg {
  readonly name: 'topology' | 'primary';
  readonly server: ServerProcess;
}

/** The conformance target as SCHEMA.md starts it (compiled, through pnpm), with N workers. */
function startLeg(
  name: Leg['name'],
  url: string,
  replicas: readonly string[],
  workers: number,
  log: (line: string) => void,
) {
  const port = PORTS[name];
  return startServer({
    name,
    command: 'pnpm',
    args: ['--silent', 'conformance:serve', ...(workers > 1 ? ['--workers', String(workers)] : [])],
    // Set even when empty, so that a DATABASE_REPLICA_URLS of the caller's environment cannot reach the primary-alone leg.
    env: { DATABASE_URL: url, DATABASE_REPLICA_URLS: replicas.join(','), PORT: String(port), API_FORMAT: 'jsonapi' },
    cwd: ROOT,
    port,
    wrapper: true,
    log,
  });
}

/**
 * True once a burst of reads of the target ran on the replicas and not on the primary (at most 15 s): each
 * worker serves reads from a replica only after its first health check passed. Cluster workers take
 * connections in turn, so 20 sequential requests reach every worker.
 */
async function readsOnReplicas(origin: string, counts: () => Promise<StatementCounts>): Promise<boolean> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const before = await counts();
    for (let i = 1; i <= 20; i++) {
      const res = await fetch(`${origin}/api/article/${i}`, { headers: { accept: JSONAPI } });
      await res.arrayBuffer();
    }
    await sleep(SETTLE_MS);
    const after = await counts();
    if (after.replicas > before.replicas && after.primary === before.primary) return true;
    await sleep(500);
  }
  return false;
}

/** The commit measured, and the server's files that differ from it. */
/** The commit of a checkout (this one by default), and its uncommitted server files. */
export function gitState(root = ROOT) {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  };
  const dirty = git('status', '--porcelain', '--', 'packages', 'test-fixtures').split('\n').filter(Boolean);
  return { commit: git('rev-parse', 'HEAD'), uncommittedServerFiles: dirty };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const pad = (s: string | number, n: number) => String(s).padStart(n);

export async function runTopology(o: BenchOptions, log: (line: string) => void): Promise<void> {
  const started = Date.now();
  const load = [loadavg()[0]!];
  const urls = topologyUrls(o);
  const primaryUrl = onDatabase(urls.primary, DATABASE);
  const pooledUrl = withParam(onDatabase(urls.pooler ?? urls.primary, DATABASE), 'prepared_statements', 'false');
  const replicaUrls = urls.replicas.map((u) => onDatabase(u, DATABASE));
  const scenarios = selectScenarios(o.only);
  log(
    `topology: ${urls.pooler ? `pooler ${redact(pooledUrl)}` : `primary ${redact(pooledUrl)}`}, replicas ${replicaUrls.map(redact).join(', ') || 'none'}; against the primary alone ${redact(primaryUrl)}; ${o.workers} workers each`,
  );

  await createDatabase(urls.primary);
  await seedBenchData(primaryUrl, 1, log);
  const primaryDb = connect(primaryUrl, { pool: { min: 0, max: 1 } });
  let replicaDbs: Database[] = [];
  // Every line the two targets write on stderr: 500s, replicas leaving the rotation.
  const stderr: string[] = [];
  const targetLog = (line: string) => {
    stderr.push(line);
    log(line);
  };
  const legs: Leg[] = [];
  try {
    await primaryDb.knex.raw('create extension if not exists pg_stat_statements');
    replicaDbs = await replicated(primaryDb, replicaUrls, log);

    legs.push({ name: 'topology', server: await startLeg('topology', pooledUrl, replicaUrls, o.workers, targetLog) });
    legs.push({ name: 'primary', server: await startLeg('primary', primaryUrl, [], o.workers, targetLog) });
    const [topology, primary] = legs as [Leg, Leg];

    const counts = async (): Promise<StatementCounts> => {
      let replicas = 0;
      for (const r of replicaDbs) replicas += await statementCount(r);
      return { primary: await statementCount(primaryDb), replicas };
    };
    if (replicaUrls.length > 0 && !(await readsOnReplicas(topology.server.origin, counts))) {
      throw new Error(`the topology target's reads did not go to the replicas within 15 s:\n${stderr.join('\n')}`);
    }

    // A run ends with requests still in flight: let them land before their rows are removed.
    const reset = async () => {
      await sleep(500);
      await removeCreatedRows(primaryDb);
    };
    await reset();
    for (const s of scenarios) {
      await verifyScenario(s, topology.server.origin, primary.server.origin, { reset }).catch((error: unknown) => {
        throw new Error(
          `(target: pooler and replicas, baseline: primary alone) ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    }
    log(`both targets answer the ${scenarios.length} scenarios with equal documents`);

    await primaryDb.knex.raw('select pg_stat_statements_reset()');
    for (const r of replicaDbs) await r.knex.raw('select pg_stat_statements_reset()');

    if (o.warmup > 0) {
      const before = await counts();
      for (const s of scenarios) {
        for (const leg of legs) {
          if (s.writes) await reset();
          await loadRun(leg.server, s, { duration: o.warmup, connections: o.connections, salt: 1000 });
        }
      }
      const after = await counts();
      log(
        `warm-up: the replicas ran ${after.replicas - before.replicas} statements, the primary ${after.primary - before.primary}`,
      );
      if (replicaUrls.length > 0 && after.replicas === before.replicas)
        throw new Error('the replicas ran no statement during the warm-up');
    }

    const runs = new Map(
      scenarios.map((s) => [
        s.name,
        {
          topology: [] as RunResult[],
          primary: [] as RunResult[],
          statements: { topology: { primary: 0, replicas: 0 }, primary: { primary: 0, replicas: 0 } },
        },
      ]),
    );
    const activityBefore = await Promise.all(replicaDbs.map(databaseActivity));
    for (let round = 0; round < o.rounds; round++) {
      const settings: LoadSettings = { duration: o.duration, connections: o.connections, salt: round };
      for (const s of scenarios) {
        const order = round % 2 === 0 ? [topology, primary] : [primary, topology];
        for (const leg of order) {
          if (s.writes) await reset();
          const before = await counts();
          const r = await loadRun(leg.server, s, settings);
          // autocannon resolves with a few requests still in flight; let their statements land in this run.
          await sleep(SETTLE_MS);
          const after = await counts();
          const entry = runs.get(s.name)!;
          entry[leg.name].push(r);
          const st = entry.statements[leg.name];
          entry.statements[leg.name] = {
            primary: st.primary + after.primary - before.primary,
            replicas: st.replicas + after.replicas - before.replicas,
          };
          log(
            `  round ${round + 1} ${s.name.padEnd(24)} ${leg.name.padEnd(8)} ${Math.round(r.rps)} rps, p50 ${r.p50} ms, p99 ${r.p99} ms; statements: primary ${after.primary - before.primary}, replicas ${after.replicas - before.replicas}${r.failures ? `; ${r.failures} failed` : ''}`,
          );
        }
      }
    }
    const activityAfter = await Promise.all(replicaDbs.map(databaseActivity));
    load.push(loadavg()[0]!);

    const results = scenarios.map((s): TopologyScenarioResult => {
      const entry = runs.get(s.name)!;
      const t = summarise(entry.topology);
      const p = summarise(entry.primary);
      return {
        name: s.name,
        method: s.method,
        path: s.path,
        topology: t,
        primary: p,
        ratio: ratioOf(t, p),
        statements: entry.statements,
      };
    });
    const sum = (pick: (r: TopologyScenarioResult) => number) => results.reduce((n, r) => n + pick(r), 0);
    const requests = (runsOf: readonly RunResult[]) => runsOf.reduce((n, r) => n + r.requests, 0);
    const report = {
      kind: 'topology',
      db: 'postgres',
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      loadAverage1min: { start: round2(load[0]!), end: round2(load[1]!) },
      elapsedSeconds: Math.round((Date.now() - started) / 1000),
      ...gitState(),
      settings: {
        duration: o.duration,
        connections: o.connections,
        rounds: o.rounds,
        warmup: o.warmup,
        only: o.only,
        workers: o.workers,
      },
      legs: {
        topology: { databaseUrl: redact(pooledUrl), replicaUrls: replicaUrls.map(redact) },
        primary: { databaseUrl: redact(primaryUrl), replicaUrls: [] },
      },
      dataset: sizesAt(1),
      scenarios: results,
      statements: {
        topology: {
          primary: sum((r) => r.statements.topology.primary),
          replicas: sum((r) => r.statements.topology.replicas),
          requests: sum((r) => requests(r.topology.runs)),
        },
        primary: {
          primary: sum((r) => r.statements.primary.primary),
          replicas: sum((r) => r.statements.primary.replicas),
          requests: sum((r) => requests(r.primary.runs)),
        },
      },
      /** pg_stat_database of the bench database on each replica over the measured rounds. */
      replicaDatabaseActivity: activityAfter.map((a, i) => ({
        replica: redact(replicaUrls[i]!),
        ...minus(a, activityBefore[i]!),
      })),
      topologyPeakRssMB: mb(Math.max(...results.map((r) => r.topology.peakRss))),
      primaryPeakRssMB: mb(Math.max(...results.map((r) => r.primary.peakRss))),
      failures: { topology: sum((r) => r.topology.failures), primary: sum((r) => r.primary.failures) },
      targetStderr: {
        lines: stderr.length,
        errors500: stderr.filter((l) => l.includes('request failed with 500')).length,
        first: stderr.slice(0, 40),
      },
    };
    const out = o.out ?? join(ROOT, 'bench/results', 'postgres-topology.json');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);

    const lines = [
      `colapi bench --topology — ${o.workers} workers each, ${o.connections} connections, ${o.duration} s × ${o.rounds} rounds (medians; ratios: median of each round's pooled+replicas ÷ primary alone), node ${process.version}, ${cpus().length} cores`,
      '',
      `${'scenario'.padEnd(26)}${pad('pool+rep rps', 13)}${pad('p50', 6)}${pad('p99', 6)}${pad('primary rps', 12)}${pad('p50', 6)}${pad('p99', 6)}${pad('rps ×', 8)}${pad('p99 ×', 8)}${pad('replica stmts', 15)}${pad('primary stmts', 15)}`,
    ];
    for (const r of results) {
      lines.push(
        `${r.name.padEnd(26)}${pad(Math.round(r.topology.rps), 13)}${pad(r.topology.p50, 6)}${pad(r.topology.p99, 6)}${pad(Math.round(r.primary.rps), 12)}${pad(r.primary.p50, 6)}${pad(r.primary.p99, 6)}${pad(r.ratio.rps, 8)}${pad(r.ratio.p99, 8)}${pad(r.statements.topology.replicas, 15)}${pad(r.statements.topology.primary, 15)}`,
      );
    }
    const st = report.statements;
    lines.push(
      '',
      `statements during the measured runs (pg_stat_statements): pooled+replicas leg — replicas ${st.topology.replicas}, primary ${st.topology.primary} for ${st.topology.requests} requests; primary-alone leg — primary ${st.primary.primary}, replicas ${st.primary.replicas} for ${st.primary.requests} requests`,
      `replica pg_stat_database over the rounds: ${report.replicaDatabaseActivity.map((a) => `${a.replica}: ${a.xactCommit} commits, ${a.tupReturned} tuples returned, ${a.tupFetched} fetched`).join('; ') || 'no replica'}`,
      `peak resident memory under load: pooled+replicas ${report.topologyPeakRssMB} MB, primary alone ${report.primaryPeakRssMB} MB (${o.workers} workers and their cluster primary)`,
      `failed requests: pooled+replicas ${report.failures.topology}, primary alone ${report.failures.primary}; target stderr: ${report.targetStderr.lines} lines, ${report.targetStderr.errors500} 500s`,
      `load average (1 min) ${report.loadAverage1min.start} at the start, ${report.loadAverage1min.end} at the end; ${report.elapsedSeconds} s in all`,
    );
    process.stdout.write(`${lines.join('\n')}\n\nwritten to ${out}\n`);
  } finally {
    for (const leg of legs) await leg.server.stop();
    await primaryDb.knex.destroy();
    for (const r of replicaDbs) await r.knex.destroy();
  }
}

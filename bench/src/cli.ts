import { connect } from '@colapi/sql-compiler';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { asBaseline, learnTags } from './conditional-tags.js';
import { benchDatabase } from './database.js';
import { sizesAt } from './dataset.js';
import { benchAuthorization, NATIVE_ROLE_SQL } from './access-rules.js';
import { ensureFloor, startFloor } from './floor.js';
import { runDeepPage } from './deep-page.js';
import { runGrowth } from './growth.js';
import { loadRun, median, summarise, type LoadSettings, type RunResult } from './load.js';
import { parseOptions, type BenchOptions } from './options.js';
import type { ServerProcess } from './processes.js';
import { summariseProfile } from './profile.js';
import {
  formatReport,
  goals,
  mb,
  ratioOf,
  type BenchReport,
  type ScalingResult,
  type ScenarioResult,
} from './report.js';
import { selectScenarios, type Scenario } from './scenarios.js';
import { settle } from './settle.js';
import { removeCreatedRows, seedBenchData } from './seed.js';
import { BASELINE_PORT, ROOT, startBaseline, startTarget } from './servers.js';
import { gitState, runTopology } from './topology.js';
import { verifyScenario } from './verify.js';

const log = (line: string) => process.stderr.write(`${line}\n`);

/** Removes what a writing scenario created, so that each run starts from the same tables. */
type Reset = () => Promise<void>;
/** Waits for the database to finish what the last run left running (settle.ts). */
type Quiet = () => Promise<void>;

async function warm(
  servers: readonly ServerProcess[],
  scenarios: readonly Scenario[],
  o: BenchOptions,
  reset: Reset,
): Promise<void> {
  if (o.warmup <= 0) return;
  for (const s of scenarios) {
    for (const server of servers) {
      if (s.writes) await reset();
      // Another salt: the warm-up's requests are not the measured ones.
      await loadRun(server, s, { duration: o.warmup, connections: o.connections, salt: 1000 });
      // And what a write left is removed at once: the reads measured next read the seeded data, not thousands
      // of created tags (a scoped read of tag linkage reads the tag table, which the unscoped one does not).
      if (s.writes) await reset();
    }
  }
}

/**
 * Alternating rounds: each round runs every scenario on both servers, the first server swapping each round;
 * both runs of a round send the same sequence of requests (salt = the round). Each run starts once the
 * database has finished what the run before it left in flight (`quiet`).
 */
async function compare(
  target: ServerProcess,
  baseline: ServerProcess,
  scenarios: readonly Scenario[],
  o: BenchOptions,
  reset: Reset,
  quiet: Quiet,
) {
  const runs = new Map(scenarios.map((s) => [s.name, { target: [] as RunResult[], baseline: [] as RunResult[] }]));
  for (let round = 0; round < o.rounds; round++) {
    const settings: LoadSettings = {
      duration: o.duration,
      connections: o.connections,
      salt: round,
      databaseProcesses: o.db !== 'sqlite',
    };
    for (const s of scenarios) {
      const order = round % 2 === 0 ? [target, baseline] : [baseline, target];
      for (const server of order) {
        if (s.writes) await reset();
        await quiet();
        const r = await loadRun(server, server === target ? s : asBaseline(s), settings);
        if (s.writes) await reset();
        runs.get(s.name)![server === target ? 'target' : 'baseline'].push(r);
        log(
          `  round ${round + 1} ${s.name.padEnd(10)} ${server.name.padEnd(8)} ${Math.round(r.rps)} rps, p50 ${r.p50} ms, p99 ${r.p99} ms, CPU per request: server ${r.serverCpuMs} ms${r.databaseCpuMs === undefined ? '' : `, database ${r.databaseCpuMs} ms`}, load ${r.load1}${r.failures ? `, ${r.failures} failed` : ''}`,
        );
      }
    }
  }
  return scenarios.map((s): ScenarioResult => {
    const target = summarise(runs.get(s.name)!.target);
    const baseline = summarise(runs.get(s.name)!.baseline);
    return { name: s.name, method: s.method, path: s.path, target, baseline, ratio: ratioOf(target, baseline) };
  });
}

async function scaling(
  url: string,
  results: readonly ScenarioResult[],
  scenarios: readonly Scenario[],
  o: BenchOptions,
  reset: Reset,
): Promise<ScalingResult[]> {
  log(`target with ${o.scaleWorkers} workers`);
  const target = await startTarget({ url, workers: o.scaleWorkers, pool: o.pool, log });
  try {
    await warm([target], scenarios, o, reset);
    const out: ScalingResult[] = [];
    for (const s of scenarios) {
      const runs: RunResult[] = [];
      for (let i = 0; i < o.rounds; i++) {
        if (s.writes) await reset();
        runs.push(await loadRun(target, s, { duration: o.duration, connections: o.connections, salt: i }));
      }
      const n = summarise(runs);
      const one = results.find((r) => r.name === s.name)!.target;
      log(`  ${s.name.padEnd(24)} ${Math.round(one.rps)} → ${Math.round(n.rps)} rps`);
      out.push({
        name: s.name,
        workers: o.scaleWorkers,
        rps1: one.rps,
        rpsN: n.rps,
        factor: Math.round((n.rps / one.rps) * 100) / 100,
        p99N: n.p99,
      });
    }
    return out;
  } finally {
    await target.stop();
  }
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  if (o.growth) return runGrowth(o, log);
  if (o.deepPage) return runDeepPage(o, log);
  if (o.topology) return runTopology(o, log);
  const started = Date.now();
  // The access variant sends its token with every request: the server without access control ignores it.
  const authorization = o.access ? await benchAuthorization() : undefined;
  const scenarios = selectScenarios(o.only).map((s) => (authorization ? { ...s, headers: { authorization } } : s));
  const against = o.against === undefined ? undefined : resolve(o.against);
  const floor = o.baseline === 'floor' && !o.access && !against ? ensureFloor(ROOT, log) : undefined;
  const url = await benchDatabase(o.db, 'colapi_bench');
  await seedBenchData(url, 1, log);
  const db = connect(url, { pool: { min: 0, max: 1 } });
  // A run ends with up to `connections` requests still in flight: let them land before their rows are removed.
  const reset = async () => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await removeCreatedRows(db);
  };
  const loadStart = loadavg()[0]!;
  let results: ScenarioResult[];
  let scaled: ScalingResult[] | undefined;
  try {
    await reset();
    if (o.native) for (const sql of NATIVE_ROLE_SQL) await db.knex.raw(sql);
    const target = await startTarget({
      url,
      pool: o.pool,
      ...(o.cpuProf ? { cpuProf: o.cpuProf } : {}),
      nodeOptions: o.targetNodeOptions,
      ...(o.access ? { env: { BENCH_ACCESS: o.native ? 'native' : '1' } } : {}),
      log,
    });
    let baseline: ServerProcess | undefined;
    try {
      baseline = o.access
        ? await startTarget({ url, pool: o.pool, port: BASELINE_PORT, name: 'no-auth', log })
        : against
          ? await startTarget({ url, pool: o.pool, port: BASELINE_PORT, name: 'before', root: against, log })
          : floor
            ? await startFloor(floor, url, BASELINE_PORT, o.pool, log)
            : await startBaseline(url, o.pool, log);
      let checked = 0;
      for (const s of scenarios) {
        // A conditional scenario's documents are compared in full (200 from both), then its tags are learnt.
        checked += await verifyScenario(asBaseline(s), target.origin, baseline.origin, { reset });
        await learnTags(s, target.origin);
      }
      log(`both servers answer the ${scenarios.length} scenarios with equal documents (${checked} requests compared)`);
      await warm([target, baseline], scenarios, o, reset);
      results = await compare(target, baseline, scenarios, o, reset, () => settle(db));
    } finally {
      await target.stop();
      await baseline?.stop();
    }
    scaled =
      o.scaleWorkers > 1 && !o.cpuProf && !o.access ? await scaling(url, results, scenarios, o, reset) : undefined;
    await reset();
  } finally {
    await db.knex.destroy();
  }
  const loads = results
    .flatMap((r) => [...r.target.runs, ...r.baseline.runs].map((x) => x.load1))
    .sort((a, b) => a - b);
  const targetPeak = mb(Math.max(...results.map((r) => r.target.peakRss)));
  const profile = o.cpuProf ? summariseProfile(o.cpuProf) : undefined;
  const report: BenchReport = {
    db: o.db,
    baseline: o.access
      ? `the same target without access control (the target: bench/src/access-rules.ts${o.native ? ', native mode' : ''})`
      : against
        ? `the target of ${against} (${gitState(against).commit})`
        : floor
          ? `floor (${floor}/floor-server.mjs)`
          : 'own (bench/src/baseline)',
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadAverage1min: {
      start: Math.round(loadStart * 100) / 100,
      min: loads[0]!,
      median: Math.round(median(loads) * 100) / 100,
      max: loads.at(-1)!,
    },
    elapsedSeconds: Math.round((Date.now() - started) / 1000),
    ...gitState(),
    settings: {
      duration: o.duration,
      connections: o.connections,
      pool: o.pool,
      rounds: o.rounds,
      warmup: o.warmup,
      only: o.only,
      ...(o.targetNodeOptions.length > 0 ? { targetNodeOptions: o.targetNodeOptions } : {}),
    },
    dataset: sizesAt(1),
    scenarios: results,
    targetPeakRssMB: targetPeak,
    baselinePeakRssMB: mb(Math.max(...results.map((r) => r.baseline.peakRss))),
    goals: goals(results, targetPeak),
    ...(scaled ? { scaling: scaled } : {}),
    ...(profile ? { profile } : {}),
  };
  const out = o.out ?? join(ROOT, 'bench/results', `${o.db}.json`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${formatReport(report)}\n\nwritten to ${out}\n`);
}

main().catch((error: unknown) => {
  log(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

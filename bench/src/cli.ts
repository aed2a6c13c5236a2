import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { benchDatabase } from './database.js';
import { sizesAt } from './dataset.js';
import { runGrowth } from './growth.js';
import { loadRun, summarise, type LoadSettings, type RunResult } from './load.js';
import { parseOptions, type BenchOptions } from './options.js';
import type { ServerProcess } from './processes.js';
import { summariseProfile } from './profile.js';
import { formatReport, goals, mb, ratioOf, type BenchReport, type ScalingResult, type ScenarioResult } from './report.js';
import { selectScenarios, type Scenario } from './scenarios.js';
import { seedBenchData } from './seed.js';
import { ROOT, startBaseline, startTarget } from './servers.js';
import { runTopology } from './topology.js';
import { verifyScenario } from './verify.js';

const log = (line: string) => process.stderr.write(`${line}\n`);

async function warm(servers: readonly ServerProcess[], scenarios: readonly Scenario[], o: BenchOptions): Promise<void> {
  if (o.warmup <= 0) return;
  for (const s of scenarios) for (const server of servers) await loadRun(server, s, { duration: o.warmup, connections: o.connections });
}

/** Alternating rounds: each round runs every scenario on both servers, the first server swapping each round. */
async function compare(target: ServerProcess, baseline: ServerProcess, scenarios: readonly Scenario[], o: BenchOptions) {
  const settings: LoadSettings = { duration: o.duration, connections: o.connections };
  const runs = new Map(scenarios.map((s) => [s.name, { target: [] as RunResult[], baseline: [] as RunResult[] }]));
  for (let round = 0; round < o.rounds; round++) {
    for (const s of scenarios) {
      const order = round % 2 === 0 ? [target, baseline] : [baseline, target];
      for (const server of order) {
        const r = await loadRun(server, s, settings);
        runs.get(s.name)![server === target ? 'target' : 'baseline'].push(r);
        log(`  round ${round + 1} ${s.name.padEnd(24)} ${server.name.padEnd(8)} ${Math.round(r.rps)} rps, p50 ${r.p50} ms, p99 ${r.p99} ms${r.failures ? `, ${r.failures} failed` : ''}`);
      }
    }
  }
  return scenarios.map((s): ScenarioResult => {
    const target = summarise(runs.get(s.name)!.target);
    const baseline = summarise(runs.get(s.name)!.baseline);
    return { name: s.name, method: s.method, path: s.path, target, baseline, ratio: ratioOf(target, baseline) };
  });
}

async function scaling(url: string, results: readonly ScenarioResult[], scenarios: readonly Scenario[], o: BenchOptions): Promise<ScalingResult[]> {
  log(`target with ${o.scaleWorkers} workers`);
  const target = await startTarget({ url, workers: o.scaleWorkers, log });
  try {
    await warm([target], scenarios, o);
    const out: ScalingResult[] = [];
    for (const s of scenarios) {
      const runs: RunResult[] = [];
      for (let i = 0; i < o.rounds; i++) runs.push(await loadRun(target, s, { duration: o.duration, connections: o.connections }));
      const n = summarise(runs);
      const one = results.find((r) => r.name === s.name)!.target;
      log(`  ${s.name.padEnd(24)} ${Math.round(one.rps)} → ${Math.round(n.rps)} rps`);
      out.push({ name: s.name, workers: o.scaleWorkers, rps1: one.rps, rpsN: n.rps, factor: Math.round((n.rps / one.rps) * 100) / 100, p99N: n.p99 });
    }
    return out;
  } finally {
    await target.stop();
  }
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  if (o.growth) return runGrowth(o, log);
  if (o.topology) return runTopology(o, log);
  const scenarios = selectScenarios(o.only);
  const url = await benchDatabase(o.db, 'colapi_bench');
  await seedBenchData(url, 1, log);
  const target = await startTarget({ url, ...(o.cpuProf ? { cpuProf: o.cpuProf } : {}), log });
  let baseline: ServerProcess | undefined;
  let results: ScenarioResult[];
  try {
    baseline = await startBaseline(url, log);
    for (const s of scenarios) await verifyScenario(s, target.origin, baseline.origin);
    log(`both servers answer the ${scenarios.length} scenarios with equal documents`);
    await warm([target, baseline], scenarios, o);
    results = await compare(target, baseline, scenarios, o);
  } finally {
    await target.stop();
    await baseline?.stop();
  }
  const scaled = o.scaleWorkers > 1 && !o.cpuProf ? await scaling(url, results, scenarios, o) : undefined;
  const targetPeak = mb(Math.max(...results.map((r) => r.target.peakRss)));
  const profile = o.cpuProf ? summariseProfile(o.cpuProf) : undefined;
  const report: BenchReport = {
    db: o.db,
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    settings: { duration: o.duration, connections: o.connections, rounds: o.rounds, warmup: o.warmup, only: o.only },
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

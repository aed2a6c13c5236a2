import { median, type RunResult, type Summary } from './load.js';
import type { ProfileSummary } from './profile.js';

export interface ScenarioResult {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly target: Summary;
  readonly baseline: Summary;
  /** target ÷ baseline, measured in the same run: the median of the rounds' ratios (`ratioOf`). */
  readonly ratio: { readonly rps: number; readonly p50: number; readonly p99: number };
}

export interface ScalingResult {
  readonly name: string;
  readonly workers: number;
  readonly rps1: number;
  readonly rpsN: number;
  readonly factor: number;
  readonly p99N: number;
}

export interface BenchReport {
  readonly db: string;
  /** What the target was measured against. */
  readonly baseline: string;
  readonly date: string;
  readonly node: string;
  readonly cpus: number;
  /** The machine's 1-minute load average: at the start, and over the ends of the measured runs. */
  readonly loadAverage1min: {
    readonly start: number;
    readonly min: number;
    readonly median: number;
    readonly max: number;
  };
  readonly elapsedSeconds: number;
  /** The commit measured, and the server's files that differed from it. */
  readonly commit: string;
  readonly uncommittedServerFiles: readonly string[];
  readonly settings: Record<string, unknown>;
  readonly dataset: Record<string, number>;
  readonly scenarios: readonly ScenarioResult[];
  readonly targetPeakRssMB: number;
  readonly baselinePeakRssMB: number;
  /** The targets of issues 6 and 15: throughput ≥ 0.8×, p99 ≤ 1.5× the baseline, RSS ≤ 150 MB. */
  readonly goals: { readonly met: boolean; readonly misses: readonly string[] };
  readonly scaling?: readonly ScalingResult[];
  readonly profile?: ProfileSummary;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
export const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

/**
 * Target ÷ baseline, as the median over rounds of the ratio within each round. The two runs of a round follow
 * each other, so they share the machine's state of the moment (another process's burst, the database's
 * autovacuum); a ratio of medians would pair runs minutes apart.
 */
export function ratioOf(target: Summary, baseline: Summary) {
  const paired = (pick: (r: RunResult) => number) =>
    round(median(target.runs.map((t, i) => pick(t) / Math.max(pick(baseline.runs[i]!), 0.001))));
  return { rps: paired((r) => r.rps), p50: paired((r) => r.p50), p99: paired((r) => r.p99) };
}

export function goals(scenarios: readonly ScenarioResult[], peakRssMB: number) {
  const misses: string[] = [];
  for (const s of scenarios) {
    if (s.ratio.rps < 0.8) misses.push(`${s.name}: throughput ${s.ratio.rps}× < 0.8×`);
    if (s.ratio.p99 > 1.5) misses.push(`${s.name}: p99 ${s.ratio.p99}× > 1.5×`);
    if (s.target.failures > 0 || s.baseline.failures > 0)
      misses.push(`${s.name}: failed requests (${s.target.failures} target, ${s.baseline.failures} baseline)`);
  }
  if (peakRssMB > 150) misses.push(`target resident memory ${peakRssMB} MB > 150 MB`);
  return { met: misses.length === 0, misses };
}

const pad = (s: string | number, n: number) => String(s).padStart(n);

/** The human-readable table of a report. */
export function formatReport(r: BenchReport): string {
  const lines = [
    `colapi bench — ${r.db} against the ${r.baseline}, ${r.settings.connections} connections, pool ${r.settings.pool}, ${r.settings.duration} s × ${r.settings.rounds} rounds (medians; ratios: median of each round's target ÷ baseline), node ${r.node}${Array.isArray(r.settings.targetNodeOptions) ? ` (the target: ${r.settings.targetNodeOptions.join(' ')})` : ''}, ${r.cpus} cores`,
    `load average (1 min): ${r.loadAverage1min.start} at the start, ${r.loadAverage1min.min}–${r.loadAverage1min.max} (median ${r.loadAverage1min.median}) at the ends of the runs; ${r.elapsedSeconds} s in all`,
    '',
    `${'scenario'.padEnd(26)}${pad('target rps', 11)}${pad('p50', 7)}${pad('p99', 7)}${pad('base rps', 10)}${pad('p50', 7)}${pad('p99', 7)}${pad('rps ×', 8)}${pad('p99 ×', 8)}`,
  ];
  for (const s of r.scenarios) {
    lines.push(
      `${s.name.padEnd(26)}${pad(round(s.target.rps, 0), 11)}${pad(s.target.p50, 7)}${pad(s.target.p99, 7)}${pad(round(s.baseline.rps, 0), 10)}${pad(s.baseline.p50, 7)}${pad(s.baseline.p99, 7)}${pad(s.ratio.rps, 8)}${pad(s.ratio.p99, 8)}`,
    );
  }
  lines.push(
    '',
    'CPU time per request, ms (medians of the rounds; the database: all its processes, on PostgreSQL and MariaDB):',
    `${'scenario'.padEnd(26)}${pad('server', 9)}${pad('database', 10)}${pad('base server', 13)}${pad('base db', 9)}${pad('server ×', 10)}${pad('db ×', 7)}`,
  );
  const db = (x: Summary) => (x.databaseCpuMs === undefined ? '-' : x.databaseCpuMs);
  const times = (t: number | undefined, b: number | undefined) => (t !== undefined && b ? round(t / b) : '-');
  for (const s of r.scenarios) {
    const server = times(s.target.serverCpuMs, s.baseline.serverCpuMs);
    const database = times(s.target.databaseCpuMs, s.baseline.databaseCpuMs);
    lines.push(
      `${s.name.padEnd(26)}${pad(s.target.serverCpuMs, 9)}${pad(db(s.target), 10)}${pad(s.baseline.serverCpuMs, 13)}${pad(db(s.baseline), 9)}${pad(server, 10)}${pad(database, 7)}`,
    );
  }
  lines.push('', `peak resident memory under load: target ${r.targetPeakRssMB} MB, baseline ${r.baselinePeakRssMB} MB`);
  if (r.scaling?.length) {
    lines.push('', `target scaling, 1 → ${r.scaling[0]!.workers} workers (rps):`);
    for (const s of r.scaling)
      lines.push(
        `  ${s.name.padEnd(26)}${pad(round(s.rps1, 0), 8)} →${pad(round(s.rpsN, 0), 8)}  ×${s.factor}  (p99 ${s.p99N} ms)`,
      );
  }
  if (r.profile) {
    lines.push('', `CPU profile of the target (${r.profile.totalMs} ms busy), self time by area:`);
    for (const a of r.profile.areas) lines.push(`  ${pad(a.percent, 5)}%  ${a.name}`);
    lines.push('self time by the package that asked for it (Node internals count for their caller):');
    for (const a of r.profile.callers) lines.push(`  ${pad(a.percent, 5)}%  ${a.name}`);
    lines.push('top functions by self time:');
    for (const f of r.profile.functions) lines.push(`  ${pad(f.percent, 5)}%  ${f.name}`);
  }
  lines.push('', r.goals.met ? 'goals met' : `goals missed:\n  ${r.goals.misses.join('\n  ')}`);
  return lines.join('\n');
}

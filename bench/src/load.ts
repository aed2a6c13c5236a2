import autocannon from 'autocannon';
import { loadavg } from 'node:os';
import { cpuMs, databasePids, residentBytes, type ServerProcess } from './processes.js';
import { headersOf, type Scenario } from './scenarios.js';

export interface RunResult {
  readonly rps: number;
  /** Latency percentiles in milliseconds. */
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  /** Answers with another status than the scenario's, plus errors and timeouts. */
  readonly failures: number;
  /** Peak resident memory of the server processes during the run, bytes. */
  readonly peakRss: number;
  /** The machine's 1-minute load average at the end of the run. */
  readonly load1: number;
  /** CPU time of the server's processes per request answered, milliseconds. */
  readonly serverCpuMs: number;
  /**
   * CPU time of the database's processes per request, milliseconds: what the statements cost it. Undefined on
   * SQLite, which runs inside the server.
   */
  readonly databaseCpuMs?: number;
}

export interface LoadSettings {
  readonly duration: number;
  readonly connections: number;
  /** Picks the sequence of requests (`Scenario.request(i, salt)`): the same for both servers of a round. */
  readonly salt?: number;
  /** Whether the database runs in processes of its own (PostgreSQL, MariaDB), whose CPU time the run counts. */
  readonly databaseProcesses?: boolean;
}

/**
 * One bounded autocannon run against 127.0.0.1, sampling the server's VmRSS every 100 ms. The n-th request
 * sent (over all connections) is `s.request(n, salt)`.
 */
export async function loadRun(server: ServerProcess, s: Scenario, settings: LoadSettings): Promise<RunResult> {
  if (!server.origin.startsWith('http://127.0.0.1:')) throw new Error('the bench only loads servers on 127.0.0.1');
  let peakRss = 0;
  const sample = () => {
    const total = server.serverPids().reduce((sum, pid) => sum + residentBytes(pid), 0);
    if (total > peakRss) peakRss = total;
  };
  sample();
  const sampler = setInterval(sample, 100);
  // Only the server and the database are counted: autocannon, in this process, is the same for both servers.
  const db = settings.databaseProcesses ? databasePids() : [];
  const serverBefore = cpuMs(server.serverPids());
  const dbBefore = cpuMs(db);
  const salt = settings.salt ?? 0;
  let sent = 0;
  try {
    const result = await autocannon({
      url: `${server.origin}${s.path}`,
      method: s.method,
      headers: headersOf(s),
      requests: [
        {
          setupRequest: (req: autocannon.Request) => {
            const r = s.request(sent++, salt);
            return {
              ...req,
              path: r.path,
              ...(r.body === undefined ? {} : { body: r.body }),
              ...(r.headers === undefined ? {} : { headers: { ...headersOf(s), ...r.headers } }),
            };
          },
        },
      ],
      connections: settings.connections,
      duration: settings.duration,
      timeout: 10,
      expectBody: undefined,
    } as autocannon.Options);
    const byStatus = result.statusCodeStats as unknown as Record<string, { count: number }> | undefined;
    const good = byStatus?.[String(s.status)]?.count ?? (s.status < 300 ? result['2xx'] : 0);
    const answered = Math.max(1, result.requests.total);
    const perRequest = (ms: number) => Math.round((ms / answered) * 1000) / 1000;
    return {
      serverCpuMs: perRequest(cpuMs(server.serverPids()) - serverBefore),
      ...(settings.databaseProcesses ? { databaseCpuMs: perRequest(cpuMs(db) - dbBefore) } : {}),
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      requests: result.requests.total,
      failures: result.requests.total - good + result.errors + result.timeouts,
      peakRss,
      load1: Math.round(loadavg()[0]! * 100) / 100,
    };
  } finally {
    clearInterval(sampler);
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Milliseconds to the microsecond: a median of an even count is a mean, whose float digits say nothing. */
const microseconds = (ms: number) => Math.round(ms * 1000) / 1000;

export interface Summary {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly failures: number;
  readonly peakRss: number;
  /** Medians of the runs' CPU time per request (RunResult). */
  readonly serverCpuMs: number;
  readonly databaseCpuMs?: number;
  readonly runs: readonly RunResult[];
}

/** Medians over the rounds; failures add up and memory keeps its peak. */
export function summarise(runs: readonly RunResult[]): Summary {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    failures: runs.reduce((n, r) => n + r.failures, 0),
    peakRss: Math.max(...runs.map((r) => r.peakRss)),
    serverCpuMs: microseconds(median(runs.map((r) => r.serverCpuMs))),
    ...(runs.every((r) => r.databaseCpuMs !== undefined)
      ? { databaseCpuMs: microseconds(median(runs.map((r) => r.databaseCpuMs!))) }
      : {}),
    runs,
  };
}

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDatabase } from './database.js';
import { sizesAt } from './dataset.js';
import { loadRun } from './load.js';
import type { BenchOptions } from './options.js';
import type { Scenario } from './scenarios.js';
import { seedBenchData } from './seed.js';
import { ROOT, startTarget } from './servers.js';

export interface GrowthRow {
  readonly scale: number;
  readonly comments: number;
  readonly total: string;
  readonly page: number;
  /** One connection: the latency of a request on an idle server, milliseconds. */
  readonly p50: number;
  readonly p99: number;
  readonly rps: number;
}

const TOTALS = ['exact', 'estimated', 'none'] as const;
const PAGES = [1, 1000] as const;

/**
 * How list latency grows with the page number and with the data: the comment collection (the largest
 * table) at page 1 and page 1,000, at scale 1 and `growthScale`, with each `meta.total` choice.
 */
export async function runGrowth(o: BenchOptions, log: (line: string) => void): Promise<void> {
  const rows: GrowthRow[] = [];
  const seconds = Math.min(o.duration, 5);
  for (const scale of [1, o.growthScale]) {
    const url = await benchDatabase(o.db, scale === 1 ? 'colapi_bench' : `colapi_bench_x${scale}`);
    await seedBenchData(url, scale, log);
    for (const total of TOTALS) {
      const server = await startTarget({ url, script: 'bench/src/growth-target.ts', env: { TOTAL_MODE: total }, log });
      try {
        for (const page of PAGES) {
          const path = `/api/comment?page[number]=${page}&page[size]=10`;
          const s: Scenario = { name: `page ${page}`, method: 'GET', path, request: () => ({ path }), status: 200 };
          await loadRun(server, s, { duration: 1, connections: 1 });
          const r = await loadRun(server, s, { duration: seconds, connections: 1 });
          if (r.failures) throw new Error(`${s.path} failed ${r.failures} times`);
          rows.push({
            scale,
            comments: sizesAt(scale).comment,
            total,
            page,
            p50: r.p50,
            p99: r.p99,
            rps: Math.round(r.rps),
          });
          log(`  ×${scale} total=${total} page ${page}: p50 ${r.p50} ms, p99 ${r.p99} ms, ${Math.round(r.rps)} rps`);
        }
      } finally {
        await server.stop();
      }
    }
  }
  const out = o.out ?? join(ROOT, 'bench/results', `growth-${o.db}.json`);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ db: o.db, date: new Date().toISOString(), seconds, connections: 1, rows }, null, 2)}\n`,
  );
  // One connection: the mean latency is 1000 / rps, finer than autocannon's whole-millisecond percentiles.
  const lines = ['| data | `total` | page 1: mean / p99 (ms) | page 1,000: mean / p99 (ms) |', '|---|---|---|---|'];
  for (const scale of [1, o.growthScale]) {
    for (const total of TOTALS) {
      const cell = (page: number) => {
        const r = rows.find((x) => x.scale === scale && x.total === total && x.page === page)!;
        return `${(1000 / r.rps).toFixed(2)} / ${r.p99}`;
      };
      lines.push(`| ${sizesAt(scale).comment.toLocaleString('en')} comments | ${total} | ${cell(1)} | ${cell(1000)} |`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n\nwritten to ${out}\n`);
}

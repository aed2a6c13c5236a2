import { createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDatabase } from './database.js';
import { sizesAt } from './dataset.js';
import { loadRun } from './load.js';
import type { BenchOptions } from './options.js';
import { deepPageScenarios } from './scenarios.js';
import { seedBenchData } from './seed.js';
import { ROOT, startTarget } from './servers.js';

/** The row the deep page ends at. */
const DEEP_ROW = 1_000_000;
/** The key the target signs cursors with here, so that the bench can name a cursor deep in the table. */
const SECRET = 'colapi bench deep page';

/**
 * The cursor of comment `id` (0: before the first) as the JSON:API format makes it for `/api/comment` with no
 * sort and no filter (cursor-signer.ts): the position as base64url JSON, a dot, its HMAC-SHA256 under the key
 * and the context. Reading a page a million rows deep by walking a million rows would take hours.
 */
function cursorAt(id: number): string {
  const payload = Buffer.from(JSON.stringify([id])).toString('base64url');
  const mac = createHmac('sha256', SECRET).update('/api/comment\n\n').update('\n').update(payload).digest('base64url');
  return `${payload}.${mac}`;
}

/**
 * The deep-page measurements: one connection, the page of 10 comments ending at row 1,000,000 by
 * `page[number]` and by cursor, and the first page each way. The comment table of the growth data set has
 * 200,000 rows per scale: the smallest scale that holds the row is taken (5: 1,000,000 comments).
 */
export async function runDeepPage(o: BenchOptions, log: (line: string) => void): Promise<void> {
  const scale = Math.ceil(DEEP_ROW / sizesAt(1).comment);
  const url = await benchDatabase(o.db, `colapi_bench_x${scale}`);
  await seedBenchData(url, scale, log);
  const seconds = Math.min(o.duration, 5);
  const server = await startTarget({
    url,
    script: 'bench/src/growth-target.ts',
    env: { TOTAL_MODE: 'none', CURSOR_SECRET: SECRET },
    // A port of its own: a comparison run of the bench may hold the target's.
    port: 18091,
    name: 'deep-page target',
    log,
  });
  const rows: { name: string; path: string; mean: number; p50: number; p99: number; rps: number }[] = [];
  try {
    for (const s of deepPageScenarios(DEEP_ROW, cursorAt)) {
      await loadRun(server, s, { duration: 1, connections: 1 });
      const r = await loadRun(server, s, { duration: seconds, connections: 1 });
      if (r.failures) throw new Error(`${s.path} failed ${r.failures} times`);
      const mean = Number((1000 / r.rps).toFixed(2));
      rows.push({ name: s.name, path: s.path, mean, p50: r.p50, p99: r.p99, rps: Math.round(r.rps) });
      log(`  ${s.name}: mean ${mean} ms, p99 ${r.p99} ms, ${Math.round(r.rps)} rps`);
    }
  } finally {
    await server.stop();
  }
  const out = o.out ?? join(ROOT, 'bench/results', `deep-page-${o.db}.json`);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const comments = sizesAt(scale).comment;
  writeFileSync(
    out,
    `${JSON.stringify({ db: o.db, date: new Date().toISOString(), comments, seconds, rows }, null, 2)}\n`,
  );
  const lines = ['| page | mean (ms) | p99 (ms) |', '|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.name} | ${r.mean.toFixed(2)} | ${r.p99} |`);
  process.stdout.write(`${comments.toLocaleString('en')} comments\n${lines.join('\n')}\n\nwritten to ${out}\n`);
}

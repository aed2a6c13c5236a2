import { createTestDatabase, testedKinds, type DatabaseKind, type TestDatabase } from '@colapi/test-fixtures/testing';
import { pino, type Logger } from 'pino';
import { Writable } from 'node:stream';
import { startDemo, type Demo, type DemoOptions } from '../src/demo-app.js';

/** Under CI a database server that cannot be reached fails the run; on a developer's machine it skips. */
export const mustReach = () => process.env.CI === 'true' || process.env.REQUIRE_DATABASES === '1';

export interface RunningDemo {
  readonly demo: Demo;
  readonly db: TestDatabase;
  stop(): Promise<void>;
}

/** A demo server on a fresh database of a kind (SQLite in a temp folder, or a new database on a server). */
export async function startOn(kind: DatabaseKind, options: Partial<DemoOptions> = {}): Promise<RunningDemo> {
  const db = await createTestDatabase(kind);
  try {
    const demo = await startDemo({ databaseUrl: db.url, ...options });
    return {
      demo,
      db,
      async stop() {
        await demo.close(1000);
        await db.drop();
      },
    };
  } catch (error) {
    await db.drop().catch(() => undefined);
    throw error;
  }
}

/** The kinds to run on: SQLite always (no server needed), servers as DATABASES and reachability allow. */
export const kinds = (): DatabaseKind[] => testedKinds();

/** A pino logger whose lines land in an array, parsed. */
export function capturingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

export const JSONAPI = 'application/vnd.api+json';

export interface CallResult {
  readonly status: number;
  readonly headers: Response['headers'];
  readonly text: string;
  readonly json: any;
}

/** GET (or another method) against a demo, JSON in and out. */
export async function call(
  origin: string,
  path: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<CallResult> {
  const headers = new Headers(init.headers);
  if (!headers.has('accept')) headers.set('accept', JSONAPI);
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    if (!headers.has('content-type')) headers.set('content-type', JSONAPI);
  }
  const response = await fetch(`${origin}${path}`, { ...init, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

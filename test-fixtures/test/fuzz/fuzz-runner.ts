import { describeEachDatabase, findLeak, tableDigest } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import fc from 'fast-check';
import { echoesOf, pathOf, send, type FuzzRequest, type FuzzResponse } from './fuzz-request.js';

/**
 * Cases per format and database. FUZZ_CASES sets it everywhere; by default SQLite runs 5,000 and the server
 * databases FUZZ_SERVER_CASES (default 1,000), which keeps the whole suite within its time budget.
 */
export function fuzzCases(kind: string): number {
  const all = Number(process.env.FUZZ_CASES);
  if (Number.isInteger(all) && all > 0) return all;
  if (kind === 'sqlite') return 5000;
  const server = Number(process.env.FUZZ_SERVER_CASES);
  return Number.isInteger(server) && server > 0 ? server : 1000;
}

/** Longest a single answer may take before the run calls it a hang. */
const REQUEST_TIMEOUT = Number(process.env.FUZZ_REQUEST_TIMEOUT) || 10_000;
/** Rows are put back to the standard dataset this often, so deletes do not starve the later cases. */
const RESEED_EVERY = 500;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Checks the shape of an error answer: the format's error document, and nothing the client must not see. */
function errorProblem(format: string, req: FuzzRequest, res: FuzzResponse): string | undefined {
  // Node itself refuses a request line longer than its header limit, before the application sees it.
  if (res.status === 431 || req.method === 'HEAD') return undefined;
  const leak = findLeak(res.text, echoesOf(req));
  if (leak) return `the error answer shows ${leak}`;
  let body: { errors?: unknown; message?: unknown };
  try {
    const jsonp = jsonpPayload(res);
    // Format A's callback receives the error document itself; Format B's receives {meta, data}.
    body = jsonp ? ((format === 'jsonapi' ? jsonp : jsonp.data) as typeof body) : JSON.parse(res.text);
  } catch {
    return `the error answer is not JSON: ${res.text.slice(0, 200)}`;
  }
  if (format === 'jsonapi' && !(Array.isArray(body.errors) && body.errors.length > 0))
    return 'the error answer has no errors member';
  if (format === 'legacy' && typeof body.message !== 'string') return 'the error answer has no message';
  return undefined;
}

/**
 * The argument of a JSONP answer, or undefined for any other answer: Format A's document or Format B's
 * `{meta, data}`, the real status in `meta.status` in both.
 */
function jsonpPayload(res: FuzzResponse): { meta: { status: number }; data?: unknown } | undefined {
  // A HEAD answer has the headers of a JSONP answer but no body to read the status from.
  if (res.status !== 200 || !res.contentType.startsWith('application/javascript') || res.text === '') return undefined;
  const m = /^\/\*\*\/[\w$.]+\(([\s\S]*)\);$/.exec(res.text);
  if (!m) throw new Error(`a JSONP answer that is not a call: ${res.text.slice(0, 200)}`);
  return JSON.parse(m[1]!);
}

/** A JSONP answer carries the real status in meta.status; its errors are checked like any other. */
function realStatus(res: FuzzResponse): number {
  return jsonpPayload(res)?.meta.status ?? res.status;
}

/**
 * Declares, per database, a property-based run of `requests` against a fresh conformance server: never a 5xx,
 * never a hang, error answers in the format's shape without SQL, stacks or connection strings, no row changed
 * by a write that was refused, and a server that still answers at the end.
 */
export function fuzzSuite(format: 'jsonapi' | 'legacy', requests: fc.Arbitrary<FuzzRequest>): void {
  const unexpected: unknown[] = [];
  describeEachDatabase(
    `fuzzing Format ${format === 'jsonapi' ? 'A' : 'B'} over HTTP`,
    (t) => {
      it('no request makes the server fail, hang, leak or change rows it refused to change', async function () {
        const cases = fuzzCases(t().kind);
        // A time bound: 2 to 3 ms a case measured on a quiet machine, up to 35 beside a load test; 50 leaves room.
        this.timeout(60_000 + cases * 50);
        const { knex } = t().target.database;
        let known = await tableDigest(knex);
        let run = 0;
        const statuses = new Map<number, number>();
        const started = performance.now();
        await fc.assert(
          fc.asyncProperty(requests, async (req) => {
            if (++run % RESEED_EVERY === 0) {
              await t().seed();
              known = await tableDigest(knex);
            }
            unexpected.length = 0;
            const res = await send(t().target.origin, req, REQUEST_TIMEOUT);
            const status = realStatus(res);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            const where = `${req.method} ${pathOf(req).slice(0, 500)}${req.body === undefined ? '' : ` body ${req.body.slice(0, 500)}`}`;
            if (status >= 500) {
              const cause = unexpected.map((e) => (e instanceof Error ? (e.stack ?? e.message) : String(e))).join('\n');
              throw new Error(`${status} for ${where}\n${res.text.slice(0, 300)}\n${cause}`);
            }
            if (status >= 400) {
              const problem = errorProblem(format, req, res);
              if (problem) throw new Error(`${problem}\nfor ${where}`);
            }
            if (READS.has(req.method)) return;
            const now = await tableDigest(knex);
            if (status >= 400 && now !== known)
              throw new Error(`a write answered ${status} but changed rows: ${where}`);
            known = now;
          }),
          { numRuns: cases, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) },
        );
        const seconds = (performance.now() - started) / 1000;
        if (process.env.FUZZ_REPORT) {
          const summary = [...statuses]
            .sort(([a], [b]) => a - b)
            .map(([s, n]) => `${s}×${n}`)
            .join(' ');
          console.log(`    ${format} on ${t().kind}: ${run} requests in ${seconds.toFixed(1)} s; ${summary}`);
        }
        expect(run).to.be.at.least(cases);
        expect(statuses.size, 'the run reached more than one kind of answer').to.be.greaterThan(3);
        expect(
          [...statuses.keys()].some((s) => s < 300),
          'some requests succeeded',
        ).to.equal(true);
      });

      it('the server still answers and writes afterwards', async () => {
        const res = await t().http.get('/api/person');
        expect(res.status, res.text).to.equal(200);
        await t().seed();
        expect((await t().http.get('/api/person/1')).status).to.equal(200);
      });
    },
    { format, api: { onUnexpectedError: (e) => unexpected.push(e) } },
  );
}

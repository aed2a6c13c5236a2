import type { Server } from 'node:http';
import { watchAnswers, type WatchedAnswer } from './answer-watch.js';
import { JsonApiSchemaViolation, jsonApiViolation } from './jsonapi-schema.js';

/**
 * The servers the harness starts check each JSON:API answer as it leaves them, whoever asked: a test's own
 * fetch(), node:http or socket (the fuzz runs, odd headers, content negotiation) as much as HttpClient. A
 * violation is noted, and fails the test during which it was answered (its beforeEach hooks included).
 */

const watched = new WeakSet<Server>();
const noted: string[] = [];

/** Notes each JSON:API answer the schema refuses. */
function check(answer: WatchedAnswer): void {
  const violation = jsonApiViolation({
    method: answer.method,
    path: answer.path,
    status: answer.status,
    contentType: answer.headers.get('content-type') ?? undefined,
    text: answer.text,
  });
  if (violation) noted.push(violation);
}

/** Checks every answer of this server from now on (once per server, however often asked). */
export function watchJsonApiAnswers(server: Server): void {
  if (watched.has(server)) return;
  watched.add(server);
  watchAnswers(server, check);
}

const wrapped = new WeakSet<object>();

function report(violations: readonly string[]): string {
  const shown = violations.slice(0, 3).join('\n\n');
  const more = violations.length > 3 ? `\n\n… and ${violations.length - 3} more answers the schema refuses` : '';
  return `${violations.length} JSON:API answer${violations.length === 1 ? '' : 's'} of this test ${violations.length === 1 ? 'is' : 'are'} no valid JSON:API 1.0 document:\n\n${shown}${more}`;
}

/**
 * Wraps the test about to run so that it fails when a watched server answered it with a document the
 * schema refuses. A test that failed on its own keeps its failure when the client already said it (a
 * JsonApiSchemaViolation from HttpClient); otherwise the notes come first and its own failure after them.
 */
function wrapCurrentTest(this: Mocha.Context): void {
  noted.length = 0;
  const test = this.currentTest;
  const fn = test?.fn;
  // A test written with a done callback keeps its own function: none of the harness's suites has one.
  if (!test || !fn || fn.length > 0 || wrapped.has(fn)) return;
  const checked = async function (this: Mocha.Context) {
    let failure: unknown;
    let failed = false;
    try {
      await (fn as Mocha.AsyncFunc).call(this);
    } catch (error) {
      failure = error;
      failed = true;
    }
    const violations = noted.splice(0);
    if (violations.length && !(failure instanceof JsonApiSchemaViolation)) {
      const own = failed
        ? `\n\nThe test failed on its own too: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}`
        : '';
      throw new JsonApiSchemaViolation(`${report(violations)}${own}`);
    }
    if (failed) throw failure;
  };
  wrapped.add(checked);
  test.fn = checked;
}

let installed = false;

/** Registers the root hook that wraps each test; the harness calls it when its module is loaded. */
export function checkJsonApiAnswersInEachTest(): void {
  if (installed || typeof beforeEach !== 'function') return;
  installed = true;
  beforeEach(wrapCurrentTest);
}

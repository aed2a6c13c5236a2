import { openApiDocument } from '@colapi/openapi';
import { schemaChecker } from '@colapi/openapi-check';
import { watchAnswers, type TestTarget, type WatchedAnswer } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { answerProblems, documentedResponse, headerProblems, type Responses } from './answer-check.js';
import { resolve } from './schema-values.js';

/** A path template of the document as a pattern of concrete paths, with the operations it has. */
interface PathPattern {
  readonly pattern: RegExp;
  readonly parameters: number;
  readonly item: Record<string, { responses: Responses }>;
}

function patterns(doc: { paths: Record<string, unknown> }): PathPattern[] {
  return Object.entries(doc.paths)
    .map(([template, item]) => ({
      pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      parameters: (template.match(/\{/g) ?? []).length,
      item: item as PathPattern['item'],
    }))
    .sort((a, b) => a.parameters - b.parameters); // a literal segment wins over a parameter (/eval/x)
}

/** What the document does not say of one answer: the operation it belongs to, its status, headers and body. */
function problemsOf(answer: WatchedAnswer, paths: PathPattern[], check: ReturnType<typeof schemaChecker>, doc: object) {
  const path = answer.path.split('?')[0]!;
  if (answer.method === 'OPTIONS') return [];
  // HEAD is GET without a body: the GET's statuses and headers.
  const method = answer.method === 'HEAD' ? 'get' : answer.method.toLowerCase();
  const operation = paths.find((p) => p.pattern.test(path))?.item[method];
  if (!operation) return [`${answer.method} ${path}: no operation of the document`];
  const where = `${answer.method} ${answer.path} answered ${answer.status}`;
  if (answer.method !== 'HEAD')
    return answerProblems(operation.responses, answer, check, doc).map((p) => `${where}: ${p}`);
  const documented = documentedResponse(operation.responses, answer.status);
  if (!documented) return [`${where}: status ${answer.status} is not documented`];
  return headerProblems(resolve(documented[1], doc), answer, check, doc).map((p) => `${where}: ${p}`);
}

/**
 * Holds every answer the suite's server gives during the suite to the OpenAPI document of that server (its
 * registry, its format, `requireIfMatch` as the suite's API has it): an operation the document lacks, a
 * status it does not declare (304, 412 and 428 by their own code), a header or body it does not describe
 * fails the test during which it was answered. Call it inside the body of describeEachDatabase.
 */
export function checkAnswersAgainstDocument(
  t: () => TestTarget,
  options: { readonly requireIfMatch?: boolean } = {},
): void {
  let active = false;
  const problems: string[] = [];
  before(() => {
    const { registry, format, server } = t().target;
    const doc = openApiDocument(registry, { format, ...(options.requireIfMatch ? { requireIfMatch: true } : {}) });
    const check = schemaChecker(doc);
    const paths = patterns(doc);
    // A shared server keeps the listener after this suite: it notes nothing then.
    watchAnswers(server, (answer) => {
      if (active) problems.push(...problemsOf(answer, paths, check, doc));
    });
    active = true;
  });
  after(() => {
    active = false;
  });
  afterEach(() => {
    const found = problems.splice(0);
    expect(found, `answers the OpenAPI document does not describe:\n  ${found.join('\n  ')}`).to.deep.equal([]);
  });
}

import { openApiDocument } from '@colapi/openapi';
import { schemaChecker } from '@colapi/openapi-check';
import type { Registry } from '@colapi/schema';
import { FORMAT_NAMES } from '@colapi/test-fixtures';
import { describeEachDatabase, type TestResponse } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { answerProblems } from './answer-check.js';
import { invalidValues, memberVariants, resolve, validValue } from './schema-values.js';

type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  schema?: object;
  example?: unknown;
  content?: Record<string, { schema: object; example?: unknown }>;
};
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
};

/** A request as a client generated from the document builds it. */
interface Request {
  readonly query: [string, string][];
  readonly headers: Record<string, string>;
  readonly body?: unknown;
}

/** The keys of a collection's first rows, read from its table. */
async function keysOf(knex: Knex, registry: Registry, name: string, limit: number): Promise<string[]> {
  const { model } = registry.collection(name)!;
  const column = model.columns.get(model.key)?.column ?? model.key;
  const rows: Record<string, unknown>[] = await knex(model.table).select(column).orderBy(column).limit(limit);
  return rows.map((r) => String(r[column]));
}

/** The collection and, on a relationship path, the target collection a path template names. */
function pathTargets(template: string, registry: Registry): { collection: string; target?: string } {
  const parts = template.split('/').slice(2);
  if (parts[0] === 'eval') return { collection: parts[1]! };
  const collection = registry.collection(parts[0]!)!;
  const relation = parts[2] === 'relationships' ? parts[3] : parts[2];
  const rel = relation === undefined ? undefined : collection.relationships.get(relation);
  return { collection: collection.name, ...(rel ? { target: registry.target(rel).name } : {}) };
}

/** A parameter's text: JSON for one described by content, else the value as it is. */
function parameterText(p: Parameter, value: unknown): string {
  return p.content ? JSON.stringify(value) : String(value);
}

/**
 * Every operation of the document, sent to a real server as a client generated from the document would
 * send it: with its required parameters, then with each documented parameter at a valid value and at each
 * value its schema refuses, and with each body its schema refuses. Every answer (status, content type,
 * body) must be one the document describes; a value the document refuses must be refused (4xx).
 */
for (const formatName of FORMAT_NAMES) {
  describeEachDatabase(
    `requests derived from the OpenAPI document (${formatName})`,
    (t) => {
      it('are answered as the document says, for every operation and documented parameter', async function () {
        this.timeout(900_000);
        const { registry, format, database } = t().target;
        const doc = openApiDocument(registry, { format }) as unknown as {
          paths: Record<string, Record<string, Operation>>;
          components: object;
        };
        const check = schemaChecker(doc);
        const problems = new Map<string, string>();
        let sent = 0;
        let succeeded = 0;

        for (const [template, item] of Object.entries(doc.paths)) {
          for (const [method, op] of Object.entries(item)) {
            if (method !== 'get') await t().seed();
            const { collection, target } = pathTargets(template, registry);
            const [id = '1'] = await keysOf(database.knex, registry, collection, 1);
            // A related item is found among the target's rows: the first one the server answers for.
            const candidates = template.includes('{related_id}')
              ? await keysOf(database.knex, registry, target!, 25)
              : ['-'];
            // Shared parameters (If-Match, If-None-Match) are references to the document's components.
            const parameters = (op.parameters ?? [])
              .map((p) => resolve(p, doc) as Parameter)
              .filter((p) => p.in !== 'path');
            const accept = [
              ...new Set(
                Object.values(op.responses).flatMap((r) => Object.keys((resolve(r, doc) as typeof r).content ?? {})),
              ),
            ].filter((m) => !m.includes('javascript'));
            const bodyType = op.requestBody ? Object.keys(op.requestBody.content)[0]! : undefined;
            const parameterValue = (p: Parameter) =>
              p.content
                ? (Object.values(p.content)[0]!.example ?? validValue(Object.values(p.content)[0]!.schema, doc))
                : (p.example ?? validValue(p.schema ?? {}, doc));
            const baseline: Request = {
              query: parameters
                .filter((p) => p.required && p.in === 'query')
                .map((p) => [p.name, parameterText(p, parameterValue(p))]),
              headers: {
                accept: accept.join(', ') || '*/*',
                ...Object.fromEntries(
                  parameters
                    .filter((p) => p.required && p.in === 'header')
                    .map((p) => [p.name, parameterText(p, parameterValue(p))]),
                ),
              },
              ...(bodyType ? { body: validValue(op.requestBody!.content[bodyType]!.schema, doc) } : {}),
            };

            let relatedId = candidates[0]!;
            const send = async (request: Request, refused?: string): Promise<TestResponse> => {
              const path = template
                .replace('{id}', encodeURIComponent(id))
                .replace('{related_id}', encodeURIComponent(relatedId));
              const query = new URLSearchParams(request.query).toString();
              const headers = {
                ...request.headers,
                ...(bodyType && request.body !== undefined ? { 'content-type': bodyType } : {}),
              };
              const res = await t().http.request(method.toUpperCase(), `${path}${query ? `?${query}` : ''}`, {
                headers,
                ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
              });
              sent++;
              if (res.status < 300) succeeded++;
              const where = `${method.toUpperCase()} ${template}`;
              const found = answerProblems(op.responses, res, check, doc);
              if (refused && res.status < 400) found.push(`accepted ${refused} with ${res.status}`);
              for (const problem of found) {
                const key = `${where}: ${problem.replace(/\d+(\.\d+)?/g, 'N').slice(0, 160)}`;
                if (!problems.has(key))
                  problems.set(
                    key,
                    `${where} ${path}?${query} ${request.body === undefined ? '' : JSON.stringify(request.body).slice(0, 300)}\n      ${problem.slice(0, 400)}\n      answer: ${res.text.slice(0, 300)}`,
                  );
              }
              return res;
            };

            for (const candidate of candidates) {
              relatedId = candidate;
              const res = await send(baseline);
              if (res.status < 300 || method !== 'get') break;
            }
            for (const p of parameters) {
              const set = (value: string): Request =>
                p.in === 'header'
                  ? { ...baseline, headers: { ...baseline.headers, [p.name]: value } }
                  : { ...baseline, query: [...baseline.query.filter(([n]) => n !== p.name), [p.name, value]] };
              if (!p.required) await send(set(parameterText(p, parameterValue(p))));
              const schema = p.content ? Object.values(p.content)[0]!.schema : (p.schema ?? {});
              for (const { value } of memberVariants(schema, doc)) await send(set(parameterText(p, value)));
              for (const { value, why } of invalidValues(schema, doc, (v) => check(schema, v) !== undefined))
                await send(set(parameterText(p, value)), `${p.name} ${why}`);
              if (p.content) await send(set('{not json'), `${p.name} that is not JSON`);
            }
            if (bodyType) {
              const schema = op.requestBody!.content[bodyType]!.schema;
              for (const { value } of memberVariants(schema, doc)) {
                if (method !== 'get') await t().seed();
                await send({ ...baseline, body: value });
              }
              for (const { value, why } of invalidValues(schema, doc, (v) => check(schema, v) !== undefined)) {
                if (method !== 'get') await t().seed();
                await send({ ...baseline, body: value }, `a body ${why}`);
              }
            }
          }
        }
        await t().seed();
        if (process.env.OPENAPI_REPORT)
          console.log(`    ${formatName} on ${t().kind}: ${sent} requests, ${succeeded} succeeded`);
        const report = [...problems.values()].join('\n  ');
        expect(problems.size, `${problems.size} disagreements in ${sent} requests:\n  ${report}`).to.equal(0);
        expect(succeeded, 'requests that succeeded').to.be.greaterThan(sent / 10);
      });
    },
    { format: formatName },
  );
}

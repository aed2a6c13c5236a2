import { expect } from 'chai';
import { defineModel, Registry } from '@colapi/schema';
import { ApiError, emptyReadQuery, type Operation, type OperationResult } from '@colapi/query-ast';
import type { HttpRequest } from '@colapi/wire-format';
import type { HookContext, HookTable, OperationHooks } from '../src/index.js';
import { hasHooks, hooksFor, runOperation } from '../src/hooks.js';

const model = (name: string, table: string) =>
  defineModel({
    name,
    table,
    columns: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'age', type: 'integer', nullable: true },
    ],
  });
const registry = new Registry([{ model: model('Person', 'person') }, { model: model('Article', 'article') }]);
const person = registry.collection('person')!;
const article = registry.collection('article')!;

const list: Operation = { kind: 'list', collection: person, query: emptyReadQuery() };
const fetch: Operation = { kind: 'fetch', collection: person, id: '1', query: emptyReadQuery() };
const request: HttpRequest = {
  method: 'GET',
  url: new URL('http://example.com/api/person'),
  base: 'http://example.com/api',
  route: { collection: 'person' },
  headers: {},
  hasBody: false,
};
const context: HookContext = { request, state: { user: 'ann' } };
const empty: OperationResult = { kind: 'collection', resources: [], total: 0, paging: { offset: 0 } };

/** Hooks that note each call in `log` under `name`, and may change what they see. */
function noting(
  log: string[],
  name: string,
  change: Partial<{ before: Operation; after: OperationResult }> = {},
): OperationHooks {
  return {
    before: (op) => {
      log.push(`${name}.before(${op.kind})`);
      return change.before;
    },
    after: (_result, op) => {
      log.push(`${name}.after(${op.kind})`);
      return change.after;
    },
  };
}

describe('hooksFor', () => {
  it('finds none without a table, or where nothing matches', () => {
    expect(hooksFor(undefined, list)).to.deep.equal([]);
    expect(hooksFor({ article: { list: {} } }, list)).to.deep.equal([]);
    expect(hooksFor({ person: { fetch: {} } }, list)).to.deep.equal([]);
  });

  it("orders them most specific first: the collection's kind, its *, then *'s kind and *", () => {
    const [pk, ps, sk, ss] = [{}, {}, {}, {}] as OperationHooks[];
    const table = { person: { list: pk, '*': ps }, '*': { list: sk, '*': ss }, article: { list: {} } } as HookTable;
    const found = hooksFor(table, list);
    expect(found).to.have.length(4);
    expect(found[0]).to.equal(pk);
    expect(found[1]).to.equal(ps);
    expect(found[2]).to.equal(sk);
    expect(found[3]).to.equal(ss);
    expect(hooksFor(table, { kind: 'delete', collection: article, id: '1' })).to.have.ordered.members([ss]);
  });
});

describe('hasHooks', () => {
  it('tells whether hooksFor would find any', () => {
    expect(hasHooks(undefined, list)).to.equal(false);
    expect(hasHooks({ article: { list: {} } }, list)).to.equal(false);
    expect(hasHooks({ person: { list: {} } }, list)).to.equal(true);
    expect(hasHooks({ '*': { '*': {} } } as HookTable, list)).to.equal(true);
  });
});

describe('runOperation', () => {
  it('runs before hooks, the operation and after hooks in order, passing the context', async () => {
    const log: string[] = [];
    const seen: HookContext[] = [];
    const table: HookTable = {
      person: {
        list: {
          ...noting(log, 'person.list'),
          before: (op, ctx) => {
            seen.push(ctx);
            log.push(`person.list.before(${op.kind})`);
          },
        },
      },
      '*': { '*': noting(log, '*.*') },
    };
    const { operation, result } = await runOperation(table, list, context, async (op) => {
      log.push(`execute(${op.kind})`);
      return empty;
    });
    expect(log).to.deep.equal([
      'person.list.before(list)',
      '*.*.before(list)',
      'execute(list)',
      'person.list.after(list)',
      '*.*.after(list)',
    ]);
    expect(seen).to.deep.equal([context]);
    expect(operation).to.equal(list);
    expect(result).to.equal(empty);
  });

  it('runs the operation alone without hooks', async () => {
    const { operation, result } = await runOperation(undefined, list, context, async () => empty);
    expect(operation).to.equal(list);
    expect(result).to.equal(empty);
  });

  it('passes on the operation a before hook returns, and the result an after hook returns', async () => {
    const adults: Operation = {
      ...list,
      query: {
        ...emptyReadQuery(),
        filter: { kind: 'compare', field: { relations: [], column: 'age' }, op: 'ge', value: 18 },
      },
    };
    const counted: OperationResult = { ...empty, total: 99 };
    const executed: Operation[] = [];
    const table: HookTable = { person: { list: { before: async () => adults, after: async () => counted } } };
    const { operation, result } = await runOperation(table, list, context, async (op) => {
      executed.push(op);
      return empty;
    });
    expect(executed).to.deep.equal([adults]);
    expect(operation).to.equal(adults);
    expect(result).to.equal(counted);
  });

  it('skips the hooks of a kind once an earlier hook turned the operation into another kind', async () => {
    const log: string[] = [];
    const table: HookTable = {
      person: { list: noting(log, 'person.list', { before: fetch }), '*': noting(log, 'person.*') },
      '*': { list: noting(log, '*.list'), fetch: noting(log, '*.fetch'), '*': noting(log, '*.*') },
    };
    const { operation } = await runOperation(table, list, context, async (op) => {
      log.push(`execute(${op.kind})`);
      return { kind: 'resource', resource: null };
    });
    // Before hooks are those of the list; *.list no longer sees a list. After hooks are those of the fetch.
    expect(log).to.deep.equal([
      'person.list.before(list)',
      'person.*.before(fetch)',
      '*.*.before(fetch)',
      'execute(fetch)',
      'person.*.after(fetch)',
      '*.fetch.after(fetch)',
      '*.*.after(fetch)',
    ]);
    expect(operation).to.equal(fetch);
  });

  it('stops at a hook that throws: nothing runs after it', async () => {
    const log: string[] = [];
    const refusal = new ApiError(403, 'Forbidden', 'people are private');
    const table: HookTable = {
      person: {
        list: {
          before: () => {
            throw refusal;
          },
        },
      },
      '*': { '*': noting(log, '*.*') },
    };
    let error: unknown;
    try {
      await runOperation(table, list, context, async () => {
        log.push('execute');
        return empty;
      });
    } catch (e) {
      error = e;
    }
    expect(error).to.equal(refusal);
    expect(log).to.deep.equal([]);
  });

  it('lets an after hook that throws fail the operation', async () => {
    const table: HookTable = {
      '*': {
        '*': {
          after: () => {
            throw new ApiError(500, 'Internal Server Error', 'audit failed');
          },
        },
      },
    };
    let error: unknown;
    try {
      await runOperation(table, list, context, async () => empty);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(ApiError).with.property('detail', 'audit failed');
  });
});

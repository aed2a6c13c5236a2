import { expect } from 'chai';
import { emptyReadQuery, type Filter, type ReadQuery } from '@colapi/query-ast';
import {
  NO_RELATIONS,
  runList,
  runStatement,
  SqlCompiler,
  type Database,
  type ListRequest,
  type Relations,
  type ResourceRow,
  type Scope,
  type Statement,
} from '../src/index.js';
import { scratchDatabaseOrSkip, TESTED_DIALECTS, type ScratchDatabase } from './support/scratch-database.js';
import {
  collection,
  createTables,
  model,
  NO_ROW,
  registry,
  relationship,
  seed,
  tenant,
  tenantScopes,
} from './support/tenants.js';

const field = (column: string, ...relations: string[]) => ({ relations, column });
const query = (parts: Partial<ReadQuery>): ReadQuery => ({ ...emptyReadQuery(), ...parts });
const eq = (column: string, value: string | number, ...relations: string[]): Filter => ({
  kind: 'compare',
  field: field(column, ...relations),
  op: 'eq',
  value,
});
/** Every relationship of a collection shown, none included. */
const showing = (name: string): Relations => ({
  shown: [...collection(name).relationships.values()],
  included: new Set(),
});
const related = (owner: string, ownerId: number, relation: string): Scope => ({
  related: { owner: collection(owner), ownerId: String(ownerId), relation },
  ownerKey: ownerId,
});
const ids = (rows: readonly ResourceRow[]) => rows.map((r) => r.values.id);
const linkage = (rows: readonly ResourceRow[]) => rows.map((r) => Object.fromEntries(r.linkage));
/** A node of PostgreSQL's EXPLAIN (FORMAT JSON). */
interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Parent Relationship'?: string;
  readonly Plans?: readonly PlanNode[];
}
/** The nodes of a plan that read `table`. */
const scansOf = (node: PlanNode, table: string): PlanNode[] => [
  ...(node['Relation Name'] === table ? [node] : []),
  ...(node.Plans ?? []).flatMap((child) => scansOf(child, table)),
];
/** The SQL of every statement of a plan, for what a scoped text must hold. */
const texts = (statements: readonly Statement<unknown>[]) => statements.map((s) => s.sql).join('\n');

for (const name of TESTED_DIALECTS) {
  describe(`row scopes [${name}]`, () => {
    let scratch: ScratchDatabase | undefined;
    let database: Database;
    let plain: SqlCompiler;
    /** Tenant 1's rows on every model. */
    let scoped: SqlCompiler;
    const run = <T>(statement: Statement<T>) => runStatement(database.knex, database.dialect, statement);
    const list = (compiler: SqlCompiler, request: Omit<ListRequest, 'relations'> & { relations?: Relations }) =>
      runList(database.knex, database.dialect, compiler.list({ relations: NO_RELATIONS, ...request }));

    before(async function () {
      this.timeout(30_000);
      scratch = await scratchDatabaseOrSkip(this, name);
      database = scratch.database;
      await createTables(database.knex);
      plain = new SqlCompiler(database.knex, database.dialect, registry);
      scoped = plain.scoped(tenantScopes());
    });
    beforeEach(() => seed(database.knex, database.dialect));
    after(async () => {
      await scratch?.drop();
    });

    describe('lists', () => {
      it('a page, its total and the linkage its rows carry hold tenant 1 alone', async () => {
        const answer = await list(scoped, {
          collection: collection('article'),
          query: query({ paging: { offset: 0, limit: 10 } }),
          relations: showing('article'),
          total: 'exact',
        });
        expect(ids(answer.rows)).to.deep.equal([1, 2, 3]);
        expect(answer.total).to.equal(3);
        // Article 3's author (person 2) is hidden: no id of it, though it is the row's foreign key.
        expect(linkage(answer.rows)).to.deep.equal([
          { author: '1', comments: ['1'], tags: ['1'] },
          { author: '3', comments: ['3'], tags: ['3'] },
          { author: null, comments: [], tags: [] },
        ]);
        // Unscoped, the same read sees everything.
        const all = await list(plain, {
          collection: collection('article'),
          query: query({ paging: { offset: 0, limit: 10 } }),
          relations: showing('article'),
          total: 'exact',
        });
        expect(ids(all.rows)).to.deep.equal([1, 2, 3, 4, 5]);
        expect(all.total).to.equal(5);
      });

      it('a page past the first, sorted through a to-one: a hidden author sorts as no author', async () => {
        const answer = await list(scoped, {
          collection: collection('article'),
          query: query({
            sort: [{ field: field('name', 'author'), descending: false }],
            paging: { offset: 1, limit: 5 },
          }),
          relations: showing('article'),
          total: 'exact',
        });
        // Nulls first ascending: article 3 (hidden author), then Alice (1), then Carol (2); the first is skipped.
        expect(ids(answer.rows)).to.deep.equal([1, 2]);
        expect(answer.total).to.equal(3);
        expect(linkage(answer.rows)).to.deep.equal([
          { author: '1', comments: ['1'], tags: ['1'] },
          { author: '3', comments: ['3'], tags: ['3'] },
        ]);
      });

      it('filters through a relation reach no hidden row: relation__field, has and any', async () => {
        const through = async (filter: Filter) =>
          ids(
            (
              await list(scoped, {
                collection: collection('article'),
                query: query({ filter }),
                total: 'exact',
              })
            ).rows,
          );
        expect(await through(eq('name', 'Bob', 'author'))).to.deep.equal([]);
        expect(await through(eq('name', 'Alice', 'author'))).to.deep.equal([1]);
        const hasComment = (body: string): Filter => ({
          kind: 'relation',
          relation: 'comments',
          op: 'has',
          filter: eq('body', body),
        });
        expect(await through(hasComment('secret'))).to.deep.equal([]);
        expect(await through(hasComment('first'))).to.deep.equal([1]);
        expect(
          await through({ kind: 'relation', relation: 'tags', op: 'any', filter: eq('name', 'tech') }),
        ).to.deep.equal([]);
        // Without a filter of its own: articles with any comment (article 1 has a visible one, 5 is hidden).
        expect(await through({ kind: 'relation', relation: 'comments', op: 'any' })).to.deep.equal([1, 2]);
        // Unscoped, the hidden rows match.
        const plainIds = async (filter: Filter) =>
          ids((await list(plain, { collection: collection('article'), query: query({ filter }) })).rows);
        expect(await plainIds(eq('name', 'Bob', 'author'))).to.deep.equal([3, 5]);
        expect(await plainIds(hasComment('secret'))).to.deep.equal([1]);
      });

      it('grouping (through a to-one too) counts groups of tenant 1 only', async () => {
        const byAuthor = await list(scoped, {
          collection: collection('article'),
          query: query({ group: [field('name', 'author')] }),
          total: 'exact',
        });
        // Groups: Alice (1), Carol (2), no visible author (3); the smallest key of each.
        expect(ids(byAuthor.rows)).to.deep.equal([1, 2, 3]);
        expect(byAuthor.total).to.equal(3);
        const byTenant = await list(scoped, {
          collection: collection('comment'),
          query: query({ group: [field('tenant_id')] }),
          total: 'exact',
        });
        expect(ids(byTenant.rows)).to.deep.equal([1]);
        expect(byTenant.total).to.equal(1);
      });

      it('an estimated total counts exactly under a scope: no estimate of the whole table', async () => {
        const request = { collection: collection('article'), query: query({}), relations: NO_RELATIONS };
        const plan = scoped.list(request);
        expect(plan.fallback).to.equal(undefined);
        expect(texts(plan.statements)).to.not.match(/pg_class|information_schema|sqlite_stat/i);
        expect((await runList(database.knex, database.dialect, plan)).total).to.equal(3);
      });

      it('a FALSE scope reads nothing and counts 0, in as many statements', async () => {
        const none = plain.scoped({ read: () => NO_ROW });
        const request = {
          collection: collection('article'),
          query: query({ paging: { offset: 0, limit: 10 } }),
          relations: showing('article'),
          total: 'exact' as const,
        };
        const answer = await runList(database.knex, database.dialect, none.list(request));
        expect(answer.rows).to.deep.equal([]);
        expect(answer.total).to.equal(0);
        expect(none.list(request).statements).to.have.lengthOf(plain.list(request).statements.length);
        expect(await run(none.row(model('article'), 1))).to.equal(undefined);
        expect(await run(none.related(relationship('article', 'tags'), [1], NO_RELATIONS))).to.deep.equal([]);
        expect(await run(none.aggregate(model('article'), [{ name: 'count', column: 'id' }]))).to.deep.equal([0]);
        expect([...(await run(none.existingKeys(model('article'), [1, 2])))]).to.deep.equal([]);
        expect(await run(none.update(model('article'), [1, 2], { title: 'x' }))).to.equal(0);
        expect(await run(none.delete(model('comment'), [1, 3]))).to.equal(0);
      });

      it('a scoped list with its includes costs as many statements as an unscoped one', async () => {
        const request = {
          collection: collection('article'),
          query: query({ paging: { offset: 0, limit: 10 }, include: [['tags'], ['comments']] }),
          relations: {
            shown: [...collection('article').relationships.values()],
            included: new Set(['tags', 'comments']),
          },
          total: 'exact' as const,
        };
        const a = plain.list(request);
        const b = scoped.list(request);
        expect(b.statements).to.have.lengthOf(a.statements.length);
        expect(b.fallback === undefined).to.equal(a.fallback === undefined);
        expect([...b.carried]).to.deep.equal([...a.carried]);
        // One statement per include, for the page's rows.
        const page = await runList(database.knex, database.dialect, b);
        const tags = await run(scoped.related(relationship('article', 'tags'), ids(page.rows), NO_RELATIONS));
        const comments = await run(scoped.related(relationship('article', 'comments'), ids(page.rows), NO_RELATIONS));
        expect(tags.map((r) => [r.owner, r.id])).to.deep.equal([
          ['1', '1'],
          ['2', '3'],
        ]);
        expect(comments.map((r) => [r.owner, r.id, r.row?.values.body])).to.deep.equal([
          ['1', '1', 'first'],
          ['2', '3', 'third'],
        ]);
      });
    });

    describe('related collections and their owners', () => {
      it('/person/1/articles: the owner is readable, its hidden articles are not listed', async () => {
        const answer = await list(scoped, {
          collection: collection('article'),
          query: query({}),
          scope: related('person', 1, 'articles'),
          total: 'exact',
        });
        expect(ids(answer.rows)).to.deep.equal([1]);
        expect(answer.total).to.equal(1);
        expect(answer.ownerExists).to.equal(true);
        expect(await run(scoped.owner(related('person', 1, 'articles')))).to.equal(true);
      });

      it('/person/2/articles: a hidden owner is not found, and lends no rows', async () => {
        const answer = await list(scoped, {
          collection: collection('article'),
          query: query({}),
          scope: related('person', 2, 'articles'),
          total: 'exact',
        });
        // Article 3 (tenant 1) is by person 2: it must not show under a hidden owner.
        expect(ids(answer.rows)).to.deep.equal([]);
        expect(answer.total).to.equal(0);
        expect(answer.ownerExists).to.equal(false);
        expect(await run(scoped.owner(related('person', 2, 'articles')))).to.equal(false);
        expect(await run(plain.owner(related('person', 2, 'articles')))).to.equal(true);
        expect(await run(scoped.row(model('article'), 3, NO_RELATIONS, related('person', 2, 'articles')))).to.equal(
          undefined,
        );
      });

      it('/tag/1/articles and /tag/2/articles: through a join table', async () => {
        const of = (tagId: number) =>
          list(scoped, {
            collection: collection('article'),
            query: query({}),
            scope: related('tag', tagId, 'articles'),
          });
        const one = await of(1);
        expect(ids(one.rows)).to.deep.equal([1]);
        expect(one.ownerExists).to.equal(true);
        const two = await of(2);
        expect(ids(two.rows)).to.deep.equal([]);
        expect(two.ownerExists).to.equal(false);
        expect(await run(scoped.row(model('article'), 1, NO_RELATIONS, related('tag', 1, 'articles')))).to.not.equal(
          undefined,
        );
        expect(await run(scoped.row(model('article'), 4, NO_RELATIONS, related('tag', 1, 'articles')))).to.equal(
          undefined,
        );
      });
    });

    describe('rows and related rows', () => {
      it('a row by key: a hidden row is none, a visible one carries visible linkage only', async () => {
        expect(await run(scoped.row(model('article'), 4))).to.equal(undefined);
        const one = await run(scoped.row(model('article'), 1, showing('article')));
        expect(Object.fromEntries(one!.linkage)).to.deep.equal({ author: '1', comments: ['1'], tags: ['1'] });
        const three = await run(scoped.row(model('article'), 3, showing('article')));
        expect(Object.fromEntries(three!.linkage)).to.deep.equal({ author: null, comments: [], tags: [] });
        const person = await run(scoped.row(model('person'), 1, showing('person')));
        expect(Object.fromEntries(person!.linkage)).to.deep.equal({ articles: ['1'] });
        const tag = await run(scoped.row(model('tag'), 1, showing('tag')));
        expect(Object.fromEntries(tag!.linkage)).to.deep.equal({ articles: ['1'] });
      });

      // PostgreSQL alone flattens the probe into a join of the whole target table (Dialect.probeEachRow).
      if (name === 'postgres')
        it("linkage through a join table probes each linked target's key: no join reads the target table", async () => {
          const { knex } = database;
          const statement = scoped.row(model('article'), 1, showing('article'));
          const plan = await knex.transaction(async (trx) => {
            await trx.raw('set local plan_cache_mode = force_generic_plan');
            await trx.raw(`prepare probe as ${statement.sql}`);
            // EXPLAIN EXECUTE takes no parameters: the values as literals (numbers and texts without quotes).
            const values = statement.bindings.map((b) => `'${String(b)}'`).join(', ');
            const explained = await trx.raw(`explain (format json, costs off) execute probe(${values})`);
            await trx.raw('deallocate probe');
            return explained.rows[0]['QUERY PLAN'][0].Plan as PlanNode;
          });
          const reads = scansOf(plan, 'rs_tag');
          expect(reads).to.have.length.greaterThan(0);
          // Each read of the target is a subquery's own node, run per join row, never a join's input.
          for (const node of reads) expect(node['Parent Relationship']).to.equal('SubPlan');
        });

      it('related(): linkage and full targets of many owners, through every join kind', async () => {
        const keysOf = async (collectionName: string, rel: string, owners: number[], relations?: Relations) =>
          (await run(scoped.related(relationship(collectionName, rel), owners, relations))).map((r) => [r.owner, r.id]);
        // Owners are rows the caller read (within scope); their hidden targets are left out.
        expect(await keysOf('article', 'tags', [1, 2])).to.deep.equal([
          ['1', '1'],
          ['2', '3'],
        ]);
        expect(await keysOf('article', 'tags', [1, 2], NO_RELATIONS)).to.deep.equal([
          ['1', '1'],
          ['2', '3'],
        ]);
        expect(await keysOf('tag', 'articles', [1, 3])).to.deep.equal([
          ['1', '1'],
          ['3', '2'],
        ]);
        // A belongs-to's owners are their foreign keys: article 3's is person 2, hidden.
        expect(await keysOf('article', 'author', [2, 1])).to.deep.equal([['1', '1']]);
        expect(await keysOf('person', 'articles', [1, 3])).to.deep.equal([
          ['1', '1'],
          ['3', '2'],
        ]);
        expect(await keysOf('article', 'comments', [1, 2])).to.deep.equal([
          ['1', '1'],
          ['2', '3'],
        ]);
        // Included rows carry their own linkage, scoped too: comment 1's article is 1.
        const full = await run(scoped.related(relationship('person', 'articles'), [1, 3], showing('article')));
        expect(full.map((r) => [r.owner, r.id, Object.fromEntries(r.row!.linkage)])).to.deep.equal([
          ['1', '1', { author: '1', comments: ['1'], tags: ['1'] }],
          ['3', '2', { author: '3', comments: ['3'], tags: ['3'] }],
        ]);
      });

      it('a create answers its row with the linkage the caller may see, and refuses within its statement a row it may not', async function () {
        const { dialect, knex } = database;
        if (!dialect.returning && !(await dialect.returnsInsertedRows?.(knex))) this.skip();
        const insert = (values: Record<string, unknown>, check?: Filter) =>
          scoped.insertReturning(model('article'), values, showing('article'), check);
        if (!dialect.refuseUnless) {
          // Under scopes a database that cannot refuse from within the statement is never asked: the server
          // inserts in a transaction there, and checks before COMMIT.
          expect(() => insert({ title: 'New', tenant_id: 1, author_id: 1 })).to.throw(/cannot refuse/);
          return;
        }
        const row = await run(insert({ title: 'New', tenant_id: 1, author_id: 1 }));
        expect(row.values).to.deep.equal({ id: 6, title: 'New', tenant_id: 1, author_id: 1 });
        expect(Object.fromEntries(row.linkage)).to.deep.equal({ author: '1', comments: [], tags: [] });
        const count = async () => Number((await knex('rs_article').count({ n: '*' }))[0]!.n);
        const refusals: [string, Record<string, unknown>, Filter?][] = [
          ['a row outside the read scope', { title: 'Theirs', tenant_id: 2 }],
          ['a foreign key to a hidden row', { title: 'By a hidden author', tenant_id: 1, author_id: 2 }],
          ['a check that fails', { title: 'Checked', tenant_id: 1 }, eq('title', 'something else')],
        ];
        for (const [what, values, check] of refusals) {
          const error = await run(insert(values, check)).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(dialect.refused!((error as { cause?: unknown } | undefined)?.cause), what).to.equal(true);
        }
        expect(await count(), 'a refused insert wrote a row').to.equal(6);
        // A check that holds, and a null foreign key, pass.
        const checked = await run(insert({ title: 'Checked', tenant_id: 1, author_id: null }, eq('title', 'Checked')));
        expect(checked.values.title).to.equal('Checked');
      });
    });

    describe('aggregates and keys', () => {
      it('an evaluation runs over tenant 1 alone, with a filter or without', async () => {
        const fns = [
          { name: 'count', column: 'id' },
          { name: 'max', column: 'id' },
        ] as const;
        expect(await run(scoped.aggregate(model('article'), fns))).to.deep.equal([3, 3]);
        expect(await run(scoped.aggregate(model('article'), fns, eq('author_id', 1)))).to.deep.equal([1, 1]);
        expect(await run(plain.aggregate(model('article'), fns))).to.deep.equal([5, 5]);
      });

      it('aggregates under scopes are planned for their values; unscoped ones, and list pages, keep a plan per text', () => {
        const fns = [{ name: 'count', column: 'id' }] as const;
        const article = collection('article');
        const page = {
          collection: article,
          query: query({ paging: { offset: 0, limit: 2 } }),
          relations: NO_RELATIONS,
        };
        expect(scoped.aggregate(model('article'), fns).planEach).to.equal(true);
        expect(scoped.aggregate(model('article'), fns, eq('author_id', 1)).planEach).to.equal(true);
        expect(plain.aggregate(model('article'), fns).planEach).to.not.equal(true);
        // A page's plan is mostly its limit: a custom plan at each run would cost more to make than it saves.
        for (const s of scoped.list({ ...page, total: 'exact' }).statements) expect(s.planEach).to.not.equal(true);
      });

      // PostgreSQL alone keeps plans per statement name; the other dialects have no such choice to test.
      if (name === 'postgres')
        it('a statement planned for its values is not prepared under a name; the same text otherwise is', async () => {
          const { knex, dialect } = database;
          const statement = scoped.aggregate(model('article'), [{ name: 'max', column: 'tenant_id' }]);
          const prepared = (trx: typeof knex) =>
            runStatement(trx, dialect, {
              sql: 'select count(*)::int as n from pg_prepared_statements where statement = $1',
              bindings: [statement.sql],
              method: 'select',
              decode: ({ rows }) => rows[0]!.n,
            });
          await knex.transaction(async (trx) => {
            expect(await runStatement(trx, dialect, statement)).to.deep.equal([1]);
            expect(await prepared(trx)).to.equal(0);
            await runStatement(trx, dialect, { ...statement, planEach: false });
            expect(await prepared(trx)).to.equal(1);
          });
        });

      it('keys, existing keys and join values: a hidden row looks missing', async () => {
        expect(await run(scoped.keys(model('article')))).to.deep.equal([1, 2, 3]);
        expect(await run(scoped.keys(model('article'), eq('author_id', 1)))).to.deep.equal([1]);
        expect([...(await run(scoped.existingKeys(model('tag'), [1, 2, 3])))]).to.have.members(['1', '3']);
        const values = await run(scoped.joinValues(relationship('article', 'author'), [1, 2, 3]));
        expect([...values.keys()]).to.have.members(['1', '3']);
      });
    });

    describe('writes', () => {
      it('a bulk update changes and counts the rows in scope only', async () => {
        const all = [1, 2, 3, 4, 5];
        expect(await run(scoped.update(model('article'), all, { title: 'changed' }))).to.equal(3);
        const titles = await database.knex('rs_article').select('id', 'title').orderBy('id');
        expect(titles.map((r) => r.title)).to.deep.equal(['changed', 'changed', 'changed', 'Hidden', 'Other']);
      });

      it("update's own scope, and the keys a bulk update asks for", async () => {
        const mine = plain.scoped(tenantScopes({ update: { kind: 'and', filters: [tenant(1), eq('author_id', 1)] } }));
        expect(await run(mine.keys(model('article'), undefined, 'update'))).to.deep.equal([1]);
        expect(await run(mine.keys(model('article'), undefined, 'read'))).to.deep.equal([1, 2, 3]);
        expect(await run(mine.update(model('article'), [1, 2, 3, 4], { title: 'mine' }))).to.equal(1);
      });

      it('a bulk delete removes and counts the rows in scope only', async () => {
        expect(await run(scoped.delete(model('comment'), [1, 2, 3, 4]))).to.equal(2);
        const left = await database.knex('rs_comment').select('id').orderBy('id');
        expect(left.map((r) => r.id)).to.deep.equal([2, 4]);
        const own = plain.scoped(tenantScopes({ delete: { kind: 'and', filters: [tenant(2), eq('body', 'secret')] } }));
        expect(await run(own.delete(model('comment'), [2, 4]))).to.equal(1);
      });

      it('outside(): the keys whose rows a check refuses, compiled without scopes', async () => {
        // An update moved article 1 to tenant 2: it left the scope, which outside() tells, though it cannot be read.
        await run(scoped.update(model('article'), [1], { tenant_id: 2 }));
        expect(await run(scoped.outside(model('article'), [1, 2, 3], tenant(1)))).to.deep.equal([1]);
        // Unknown (a null author) is outside; so is a key with no row.
        expect(await run(scoped.outside(model('article'), [1, 2, 99], eq('author_id', 1)))).to.deep.equal([2, 99]);
        // A rule's has over rows the caller cannot read still sees them: comment 2 (tenant 2) is on article 1.
        const hasSecret: Filter = { kind: 'relation', relation: 'comments', op: 'has', filter: eq('body', 'secret') };
        expect(await run(scoped.outside(model('article'), [1, 2], hasSecret))).to.deep.equal([2]);
        expect(scoped.outside(model('article'), [1], tenant(1)).sql).to.equal(
          plain.outside(model('article'), [1], tenant(1)).sql,
        );
      });

      it('links to hidden targets: setting, clearing, join rows and unlinking leave them alone', async () => {
        const { knex } = database;
        // Person 1's articles: article 5 is hidden, 2 is visible.
        expect(await run(scoped.setForeignKeys(relationship('person', 'articles'), 1, [2, 5]))).to.equal(1);
        // A replace by nothing clears the visible ones only: article 4 (hidden) keeps its author.
        expect(await run(scoped.clearForeignKeys(relationship('person', 'articles'), 1, { except: [] }))).to.equal(2);
        const authors = await knex('rs_article').select('id', 'author_id').orderBy('id');
        expect(authors.map((r) => r.author_id)).to.deep.equal([null, null, 2, 1, 2]);
        // Join rows: article 1 is tagged 1 (visible) and 2 (hidden).
        const tags = relationship('article', 'tags');
        expect([...(await run(scoped.joinedValues(tags, 1, [1, 2])))]).to.deep.equal(['1']);
        expect(
          await run(scoped.unlink({ model: model('article'), key: 1, own: 1 }, tags, { key: 2, value: 2 })),
        ).to.equal(0);
        expect(await run(scoped.deleteJoinRows(tags, 1, { except: [] }))).to.equal(1);
        expect((await knex('rs_article_tag').where('article_id', 1)).map((r) => r.tag_id)).to.deep.equal([2]);
        // 'all' is every join row of an owner that goes, hidden targets' too.
        expect(await run(scoped.deleteJoinRows(tags, 1, 'all'))).to.equal(1);
      });

      it('referencing() is not scoped: a hidden row that refers to an owner keeps it alive', async () => {
        // Article 5 (tenant 2) has comment 4 only; article 1's comment 2 is hidden but refers to it.
        const comments = relationship('article', 'comments');
        expect(await run(scoped.referencing(comments, 1))).to.equal(true);
        expect(await run(scoped.referencing(comments, 3))).to.equal(false);
        await database.knex('rs_comment').where('id', 1).update({ article_id: null });
        expect(await run(scoped.referencing(comments, 1))).to.equal(true);
        expect(scoped.referencing(comments, 1).sql).to.equal(plain.referencing(comments, 1).sql);
      });

      it('unlink: a hidden target is related to nothing, whatever the join', async () => {
        const article = model('article');
        // belongs-to: article 3's author is person 2, hidden.
        expect(
          await run(
            scoped.unlink({ model: article, key: 3, own: 3 }, relationship('article', 'author'), { key: 2, value: 2 }),
          ),
        ).to.equal(0);
        expect(
          await run(
            scoped.unlink({ model: article, key: 1, own: 1 }, relationship('article', 'author'), { key: 1, value: 1 }),
          ),
        ).to.equal(1);
        // has: person 1's article 4 is hidden.
        const articles = relationship('person', 'articles');
        expect(
          await run(scoped.unlink({ model: model('person'), key: 1, own: 1 }, articles, { key: 4, value: 4 })),
        ).to.equal(0);
        expect(
          await run(scoped.unlink({ model: model('person'), key: 3, own: 3 }, articles, { key: 2, value: 2 })),
        ).to.equal(1);
        // through: tag 1 of article 4 (hidden) from tag 1's side.
        const tagArticles = relationship('tag', 'articles');
        expect(
          await run(scoped.unlink({ model: model('tag'), key: 1, own: 1 }, tagArticles, { key: 4, value: 4 })),
        ).to.equal(0);
        expect(
          await run(scoped.unlink({ model: model('tag'), key: 1, own: 1 }, tagArticles, { key: 1, value: 1 })),
        ).to.equal(1);
      });
    });

    describe("a rule's own filter", () => {
      it('is compiled without scopes: its has reaches rows the caller cannot read', async () => {
        // Tags read: those on an article titled 'Other' (article 5, tenant 2, hidden as an article).
        const rule: Filter = { kind: 'relation', relation: 'articles', op: 'any', filter: eq('title', 'Other') };
        const onOther = plain.scoped(tenantScopes({ read: { Tag: rule } }));
        const answer = await list(onOther, { collection: collection('tag'), query: query({}), total: 'exact' });
        expect(ids(answer.rows)).to.deep.equal([2]);
        expect(answer.total).to.equal(1);
        // The client's own has through tags, in the same request, is scoped: article 5 stays hidden.
        const viaTags = await list(onOther, {
          collection: collection('article'),
          query: query({ filter: { kind: 'relation', relation: 'tags', op: 'any', filter: eq('name', 'tech') } }),
        });
        expect(ids(viaTags.rows)).to.deep.equal([1]);
      });
    });

    describe('caches', () => {
      // A page of articles showing their relationships, and their tags: shapes every cache keeps.
      const request = {
        collection: collection('article'),
        query: query({ paging: { offset: 0, limit: 10 } }),
        relations: showing('article'),
        total: 'exact' as const,
      };
      const rel = relationship('article', 'tags');

      it('a statement kept from an unscoped read never serves a scoped one, nor the reverse', () => {
        // The scope's comparison (the select lists name the column too).
        const scopeText = /tenant_id["`] = /;
        const fns = [{ name: 'count', column: 'id' }] as const;
        const values = { title: 'New', tenant_id: 1 };
        const compile = (compiler: SqlCompiler) => ({
          list: texts(compiler.list(request).statements),
          related: compiler.related(rel, [1, 2]).sql,
          relatedRows: compiler.related(rel, [1, 2], showing('tag')).sql,
          row: compiler.row(model('article'), 1, showing('article')).sql,
          aggregate: compiler.aggregate(model('article'), fns).sql,
          insert: database.dialect.refuseUnless
            ? compiler.insertReturning(model('article'), values, showing('article')).sql
            : '',
        });
        // Unscoped first, twice, so that every shape is kept; then scoped, same shapes.
        const before = compile(plain);
        expect(compile(plain)).to.deep.equal(before);
        const inScope = compile(scoped);
        for (const [what, sql] of Object.entries(inScope)) {
          if (what === 'insert' && sql === '') continue;
          expect(sql, what).to.match(scopeText);
          expect(before[what as keyof typeof before], what).to.not.match(scopeText);
        }
        // And a scoped compile left nothing behind for the unscoped ones.
        expect(compile(plain)).to.deep.equal(before);
        // A scope that restricts nothing compiles the very same text as no scope.
        expect(compile(plain.scoped({ read: () => undefined }))).to.deep.equal(before);
      });

      it('two callers of different tenants: each statement binds its own values', async () => {
        const other = plain.scoped({ read: () => tenant(2) });
        expect(ids((await list(other, { collection: collection('article'), query: query({}) })).rows)).to.deep.equal([
          4, 5,
        ]);
        expect(ids((await list(scoped, { collection: collection('article'), query: query({}) })).rows)).to.deep.equal([
          1, 2, 3,
        ]);
        expect((await run(other.row(model('article'), 4)))?.values.id).to.equal(4);
        expect(await run(scoped.row(model('article'), 4))).to.equal(undefined);
      });
      it('scopes with a key: one statement per shape is kept and bound again with each caller own values', async () => {
        // Callers of one role (the key) whose scopes differ only in values: tenant 1 and tenant 2.
        const member = (t: number) => plain.scoped({ key: 'member', read: () => tenant(t) });
        const statements = (compiler: SqlCompiler) => ({
          list: compiler.list(request).statements,
          owned: compiler.list({ ...request, scope: related('person', 4, 'articles') }).statements,
          row: [compiler.row(model('article'), 4, showing('article'))],
          related: [compiler.related(rel, [4, 5])],
          relatedRows: [compiler.related(rel, [4, 5], showing('tag'))],
        });
        const first = statements(member(1));
        const second = statements(member(2));
        for (const [what, kept] of Object.entries(first)) {
          const again = second[what as keyof typeof second];
          expect(texts(again), what).to.equal(texts(kept));
          // The very statement kept (its decoder is the same function), with other values.
          expect(
            again.map((s) => s.decode),
            what,
          ).to.deep.equal(kept.map((s) => s.decode));
          expect(
            again.map((s) => s.bindings),
            what,
          ).to.not.deep.equal(kept.map((s) => s.bindings));
        }
        const rows = async (t: number) => ({
          list: ids((await list(member(t), request)).rows),
          row: (await run(member(t).row(model('article'), 4, showing('article'))))?.values.id,
          related: (await run(member(t).related(rel, [4, 5]))).map((r) => r.id),
        });
        expect(await rows(2)).to.deep.equal({ list: [4, 5], row: 4, related: ['2'] });
        expect(await rows(1)).to.deep.equal({ list: [1, 2, 3], row: undefined, related: ['1'] });
        expect(await rows(2)).to.deep.equal({ list: [4, 5], row: 4, related: ['2'] });
      });

      it("a filtered read is kept per the filter's text and the scopes' key, and reads through a relation in scope", async () => {
        const member = (t: number) => plain.scoped({ key: 'member', read: () => tenant(t) });
        // Articles whose author's name matches: the author is read in the caller's scope (Bob is tenant 2's).
        const byAuthor = (pattern: string) => ({
          collection: collection('article'),
          query: query({
            filter: {
              kind: 'relation',
              relation: 'author',
              op: 'has',
              filter: { kind: 'compare', field: field('name'), op: 'like', value: pattern },
            },
            paging: { offset: 0, limit: 10 },
          }),
          relations: showing('article'),
          total: 'exact' as const,
        });
        const first = member(1).list(byAuthor('%o%')).statements;
        for (const again of [member(2).list(byAuthor('%o%')).statements, member(1).list(byAuthor('%l%')).statements]) {
          expect(texts(again)).to.equal(texts(first));
          // The very statement kept (its decoder is the same function), with other values.
          expect(again.map((s) => s.decode)).to.deep.equal(first.map((s) => s.decode));
          expect(again.map((s) => s.bindings)).to.not.deep.equal(first.map((s) => s.bindings));
        }
        const read = async (compiler: SqlCompiler, pattern: string) => {
          const answer = await list(compiler, byAuthor(pattern));
          return { ids: ids(answer.rows), total: answer.total };
        };
        expect(await read(member(1), '%o%')).to.deep.equal({ ids: [2], total: 1 });
        expect(await read(member(2), '%o%')).to.deep.equal({ ids: [5], total: 1 });
        expect(await read(member(1), '%l%')).to.deep.equal({ ids: [1, 2], total: 2 });
        // Unscoped, the same filter's text is another statement, kept apart: every author is read.
        expect(texts(plain.list(byAuthor('%o%')).statements)).to.not.equal(texts(first));
        expect(await read(plain, '%o%')).to.deep.equal({ ids: [2, 3, 5], total: 3 });
        expect(await read(member(1), '%o%')).to.deep.equal({ ids: [2], total: 1 });
        // An evaluation under the same filter: kept alike, still planned for its values at each run.
        const fns = [{ name: 'count', column: 'id' }] as const;
        const count = (compiler: SqlCompiler, pattern: string) =>
          compiler.aggregate(model('article'), fns, byAuthor(pattern).query.filter);
        const kept = count(member(1), '%o%');
        const other = count(member(2), '%o%');
        expect(other.sql).to.equal(kept.sql);
        expect(other.decode).to.equal(kept.decode);
        expect(other.planEach).to.equal(true);
        expect(await run(kept)).to.deep.equal([1]);
        expect(await run(other)).to.deep.equal([1]);
        expect(await run(count(member(1), '%l%'))).to.deep.equal([2]);
        expect(await run(count(plain, '%o%'))).to.deep.equal([3]);
        expect(await run(count(member(2), '%l%'))).to.deep.equal([0]);
      });

      it('under one key, a scope of another text (a claim missing, another rule) is never served a kept statement', async () => {
        const member = (read: (m: { name: string }) => Filter) => plain.scoped({ key: 'member', read });
        const request = { collection: collection('article'), query: query({}), total: 'exact' as const };
        const byTenant = member(() => tenant(2));
        const nothing = member(() => NO_ROW);
        const titled = member((m) => (m.name === 'Article' ? eq('title', 'Hidden') : tenant(2)));
        expect(ids((await list(byTenant, request)).rows)).to.deep.equal([4, 5]);
        expect(ids((await list(nothing, request)).rows)).to.deep.equal([]);
        expect(texts(nothing.list({ ...request, relations: NO_RELATIONS }).statements)).to.not.equal(
          texts(byTenant.list({ ...request, relations: NO_RELATIONS }).statements),
        );
        expect(await run(nothing.row(model('article'), 4))).to.equal(undefined);
        expect((await run(byTenant.row(model('article'), 4)))?.values.id).to.equal(4);
        expect(ids((await list(titled, request)).rows)).to.deep.equal([4]);
        expect(ids((await list(byTenant, request)).rows)).to.deep.equal([4, 5]);
        // Only the article scope differs: a row of another model's rule under the same key is not confused either.
        expect(await run(titled.row(model('article'), 5))).to.equal(undefined);
        expect((await run(byTenant.row(model('article'), 5)))?.values.id).to.equal(5);
      });
    });

    describe('statements', () => {
      it('a scoped read by key: the scope is more SQL in the one statement, its values bindings', async () => {
        const statement = scoped.row(model('article'), 2);
        expect(statement.bindings).to.have.members([1, 2]);
        expect(statement.sql).to.match(/tenant_id["`] = /);
        const row = await run(statement);
        expect(row?.values.id).to.equal(2);
      });
    });
  });
}

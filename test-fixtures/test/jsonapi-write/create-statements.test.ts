import { countQueries, describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectError, expectStatus, resource, rows } from './helpers.js';

describeEachDatabase('Format A: a bare create is one statement, compiled once per shape', (t) => {
  beforeEach(() => t().seed());

  const post = (body: unknown) => countQueries(t().target.database.knex, () => t().http.post('/api/task', body));
  /** Whether the database answers an INSERT with its row: the dialect's word, or the server's (MariaDB 10.5+). */
  const returnsRows = async () => {
    const { dialect, knex } = t().target.database;
    return dialect.returning || (await dialect.returnsInsertedRows?.(knex)) === true;
  };

  it('knows which servers return inserted rows: PostgreSQL, SQLite and MariaDB, not MySQL', async () => {
    const { dialect, knex } = t().target.database;
    if (dialect.name !== 'mysql') return expect(await returnsRows()).to.equal(true);
    const [[{ version }]] = (await knex.raw('select version() as version')) as [[{ version: string }]];
    // The MariaDB servers of these tests are all 10.5 or later.
    expect(await returnsRows(), version).to.equal(/mariadb/i.test(version));
  });

  it('inserts and answers the row in one statement (two where the database returns no rows: insert, then read)', async () => {
    const { result, count, sql } = await post(resource('task', { title: 'one', duration: 120, due: '2024-05-01' }));
    const res = expectStatus(result, 201);
    expect(res.body.data.attributes).to.deep.equal({ title: 'one', duration: 120, due: '2024-05-01' });
    expect(count, sql.join('\n')).to.equal((await returnsRows()) ? 1 : 2);
    expect(sql[0]).to.match(/^insert into/i);
    // No BEGIN or COMMIT: the statement is atomic by itself.
    expect(sql.join('\n')).to.not.match(/\b(begin|commit|savepoint)\b/i);
    const [stored] = await rows(t(), 'task', { id: Number(res.body.data.id) });
    expect(stored!.title).to.equal('one');
  });

  it("answers a new row's has-many and join-table linkage as empty without reading it where foreign keys prove it", async () => {
    const person = await countQueries(t().target.database.knex, () =>
      t().http.post('/api/person', resource('person', { name: 'new' })),
    );
    const created = expectStatus(person.result, 201).body.data;
    expect(created.relationships.articles.data).to.deep.equal([]);
    expect(created.relationships.comments.data).to.deep.equal([]);
    const tag = await countQueries(t().target.database.knex, () =>
      t().http.post('/api/tag', resource('tag', { name: 'brand new' })),
    );
    expect(expectStatus(tag.result, 201).body.data.relationships.articles.data).to.deep.equal([]);
    const { dialect } = t().target.database;
    const returning = await returnsRows();
    for (const { count, sql } of [person, tag]) {
      expect(count, sql.join('\n')).to.equal(returning ? 1 : 2);
      // Where the database enforces its foreign keys nothing can point at a key that did not exist: no key lists.
      if (dialect.enforcedForeignKeys) expect(sql.join('\n')).to.not.match(/__colapi_link/);
      else expect(sql.join('\n')).to.match(/__colapi_link/);
    }
    // A read of the new resources agrees.
    const read = expectStatus(await t().http.get(`/api/person/${created.id}`), 200).body.data;
    expect(read.relationships.articles.data).to.deep.equal([]);
  });

  it('sends the same statement text whatever the order of the attributes, with each create its own values', async () => {
    const a = await post(resource('task', { title: 'first', due: '2024-01-02', duration: 5 }));
    const b = await post(resource('task', { duration: 7, due: '2025-03-04', title: 'second' }));
    expect(b.sql[0]).to.equal(a.sql[0]);
    expect(expectStatus(a.result, 201).body.data.attributes).to.deep.equal({
      title: 'first',
      duration: 5,
      due: '2024-01-02',
    });
    expect(expectStatus(b.result, 201).body.data.attributes).to.deep.equal({
      title: 'second',
      duration: 7,
      due: '2025-03-04',
    });
  });

  it('gives each set of written columns a statement of its own, down to none at all', async () => {
    const some = await post(resource('task', { title: 'only a title' }));
    const none = await post(resource('task'));
    expect(some.sql[0]).to.not.equal(none.sql[0]);
    expect(expectStatus(some.result, 201).body.data.attributes).to.deep.equal({
      title: 'only a title',
      duration: null,
      due: null,
    });
    const empty = expectStatus(none.result, 201).body.data;
    expect(empty.attributes).to.deep.equal({ title: null, duration: null, due: null });
    expect(await rows(t(), 'task', { id: Number(empty.id) })).to.have.lengthOf(1);
  });

  it('answers an insert the database refuses with 409 and stores nothing; the next create still runs', async () => {
    const before = await rows(t(), 'tag');
    const duplicate = await countQueries(t().target.database.knex, () =>
      t().http.post('/api/tag', resource('tag', { name: 'news' })),
    );
    expectError(duplicate.result, 409);
    expect(duplicate.sql[0]).to.match(/^insert into/i);
    expect(await rows(t(), 'tag')).to.deep.equal(before);
    expectStatus(await t().http.post('/api/tag', resource('tag', { name: 'fresh' })), 201);
  });
});

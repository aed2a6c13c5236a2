import { jsonApiFormat } from '@colapi/format-jsonapi';
import { Registry } from '@colapi/schema';
import { describeEachDatabase, type HttpClient } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { census, expectError, expectStatus, resource, rows } from '../jsonapi-write/helpers.js';
import { GENERIC_UNIQUE, hiddenNameHooks } from '../shared/hidden-name-hooks.js';
import { ownServer } from '../shared/own-server.js';

/**
 * `tag` registered with `exclude: ['name']`, the name set by hiddenNameHooks: a unique violation on it
 * must not name the hidden field nor point at it, in the request's own table or, through a hook of `person`, in another table
 * whose only collection hides the column.
 */
describeEachDatabase('Format A: a database error on a field the collection hides names no field', (t) => {
  const http = ownServer(
    t,
    ({ target }) => {
      const models = target.registry.models;
      const registry = new Registry([
        { model: models.get('Person')!, options: { name: 'person', exclude: ['articles', 'comments'] } },
        { model: models.get('Tag')!, options: { name: 'tag', exclude: ['name', 'articles'] } },
      ]);
      return { registry, format: jsonApiFormat(), hooks: hiddenNameHooks };
    },
    'application/vnd.api+json',
  );
  beforeEach(() => t().seed());

  const expectHidden = (res: Awaited<ReturnType<HttpClient['post']>>) => {
    const error = expectError(res, 409);
    expect(error).to.deep.equal({ status: '409', title: 'Conflict', detail: GENERIC_UNIQUE });
    expect(res.text).to.not.match(/"name"|\/data\/attributes/);
  };

  it('a unique violation on the hidden column of a create is 409 with the generic detail and no pointer', async () => {
    const before = await census(t());
    expectHidden(await http().post('/api/tag', resource('tag')));
    expect(await census(t())).to.deep.equal(before);
  });

  it('a unique violation on the hidden column of an update is 409 with the generic detail and no pointer', async () => {
    expectHidden(await http().patch('/api/tag/3', resource('tag', undefined, undefined, '3')));
    expect((await rows(t(), 'tag', { id: 3 }))[0]!.name).to.equal('life');
  });

  it('a unique violation in another table, on a column its only collection hides, names no field either', async () => {
    const before = await census(t());
    expectHidden(await http().post('/api/person', resource('person', { name: 'Zed' })));
    expect(await census(t())).to.deep.equal(before);
  });

  it('the hidden column is written when it is unique', async () => {
    await t().target.database.knex('tag').where({ id: 1 }).update({ name: 'old news' });
    const res = expectStatus(await http().post('/api/tag', resource('tag')), 201);
    expect(res.body.data.attributes ?? {}).to.not.have.property('name');
    expect((await rows(t(), 'tag', { id: Number(res.body.data.id) }))[0]!.name).to.equal('news');
  });
});

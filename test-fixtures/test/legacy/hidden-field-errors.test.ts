import { legacyFormat } from '@colapi/format-legacy';
import { Registry } from '@colapi/schema';
import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectMessage, rows, snapshot } from './helpers.js';
import { GENERIC_UNIQUE, hiddenNameHooks } from '../shared/hidden-name-hooks.js';
import { ownServer } from '../shared/own-server.js';

/**
 * `tag` registered with `exclude: ['name']`, the name set by hiddenNameHooks: a unique violation on it
 * must not name the field, in the request's own table or, through a hook of `person`, in another table
 * whose only collection hides the column.
 */
describeEachDatabase(
  'Format B: a database error on a field the collection hides names no field',
  (t) => {
    const http = ownServer(
      t,
      ({ target }) => {
        const models = target.registry.models;
        const registry = new Registry([
          { model: models.get('Person')!, options: { name: 'person', exclude: ['articles', 'comments'] } },
          {
            model: models.get('Tag')!,
            options: { name: 'tag', methods: ['GET', 'POST', 'PATCH', 'PUT'], exclude: ['name', 'articles'] },
          },
        ]);
        return { registry, format: legacyFormat(), hooks: hiddenNameHooks };
      },
      'application/json',
    );
    beforeEach(() => t().seed());

    it('a unique violation on the hidden column of a create or an update is 400 with the generic message', async () => {
      const before = await snapshot(t());
      expectMessage(await http().post('/api/tag', {}), 400, GENERIC_UNIQUE);
      expectMessage(await http().patch('/api/tag/3', {}), 400, GENERIC_UNIQUE);
      expectMessage(await http().put('/api/tag/3', {}), 400, GENERIC_UNIQUE);
      expect(await snapshot(t())).to.equal(before);
      expect((await rows(t(), 'tag', { id: 3 }))[0]!.name).to.equal('life');
    });

    it('a unique violation in another table, on a column its only collection hides, names no field either', async () => {
      const before = await snapshot(t());
      expectMessage(await http().post('/api/person', { name: 'Zed' }), 400, GENERIC_UNIQUE);
      expect(await snapshot(t())).to.equal(before);
    });
  },
  { format: 'legacy' },
);

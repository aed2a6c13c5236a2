import { jsonApiFormat } from '@colapi/format-jsonapi';
import { legacyFormat } from '@colapi/format-legacy';
import { MODELS } from '@colapi/test-fixtures';
import { modelsFromObjection } from '@colapi/objection';
import { Registry } from '@colapi/schema';
import { createApi } from '@colapi/server-koa';
import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { ATOMIC_HEADERS, res, resultsOf } from './helpers.js';

describeEachDatabase(
  'Atomic operations: setting up the endpoint',
  (t) => {
    it('a collection named operations beside atomic: true is refused when the API is made', async () => {
      const models = await modelsFromObjection(MODELS);
      const registry = new Registry([
        { model: models.get('Tag')!, options: { name: 'operations', methods: ['GET'], exclude: ['articles'] } },
      ]);
      const make = (atomicOn: boolean) => () =>
        createApi({ registry, database: t().target.database, format: jsonApiFormat(), atomic: atomicOn });
      expect(make(true)).to.throw(/the collection "operations" has the path of the atomic operations endpoint/);
      expect(make(false)).to.not.throw();
    });
    it('a format without the extension (Format B) with atomic: true is refused', async () => {
      const registry = t().target.registry;
      expect(() =>
        createApi({ registry, database: t().target.database, format: legacyFormat(), atomic: true }),
      ).to.throw(/the wire format "legacy" has no atomic operations/);
    });
    it('meta on the document and on an operation is accepted and ignored', async () => {
      const r = await t().http.post(
        '/api/operations',
        { meta: { a: 1 }, 'atomic:operations': [{ op: 'add', data: res('tag', { name: 'meta' }), meta: { b: 2 } }] },
        { headers: ATOMIC_HEADERS },
      );
      expect(resultsOf(r)[0]!.data.attributes.name).to.equal('meta');
    });
  },
  { api: { atomic: true } },
);

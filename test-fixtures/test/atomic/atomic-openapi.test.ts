import { openApiDocument } from '@colapi/openapi';
import { expectValidOpenApi, schemaChecker } from '@colapi/openapi-check';
import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { ATOMIC_TYPE, atomic, id, lid, res } from './helpers.js';

describeEachDatabase(
  'Atomic operations: the OpenAPI document',
  (t) => {
    const document = () => openApiDocument(t().target.registry, { format: t().target.format, atomic: true }) as any;

    it('is a valid OpenAPI 3.1 document with POST /api/operations, absent without atomic', async () => {
      await expectValidOpenApi(document());
      expect(Object.keys(document().paths['/api/operations'])).to.deep.equal(['post']);
      const plain = openApiDocument(t().target.registry, { format: t().target.format }) as any;
      expect(plain.paths).to.not.have.property('/api/operations');
    });

    it('describes the live answers: results, and errors', async () => {
      await t().seed();
      const post = document().paths['/api/operations'].post;
      const check = schemaChecker(document());
      const schemaOf = (status: string) => post.responses[status].content[ATOMIC_TYPE].schema;
      const ok = await atomic(t(), [
        { op: 'add', data: res('person', { name: 'Doc' }, undefined, { lid: 'p' }) },
        { op: 'add', data: res('article', { title: 'Doc' }, { author: lid('person', 'p'), tags: [id('tag', 1)] }) },
        { op: 'update', data: { type: 'tag', id: '1', attributes: { name: 'doc' } } },
      ]);
      expect(ok.status, ok.text).to.equal(200);
      expect(check(schemaOf('200'), ok.body)).to.equal(undefined);
      const bad = await atomic(t(), [{ op: 'merge' }, { op: 'add', data: res('tag', { nope: 1 }) }]);
      expect(bad.status).to.equal(400);
      expect(check(schemaOf('400'), bad.body)).to.equal(undefined);
      const request = post.requestBody.content[ATOMIC_TYPE].schema;
      expect(check(request, { 'atomic:operations': [{ op: 'remove', ref: id('tag', 1) }] })).to.equal(undefined);
      expect(check(request, { 'atomic:operations': [] })).to.not.equal(undefined);
    });
  },
  { api: { atomic: true } },
);

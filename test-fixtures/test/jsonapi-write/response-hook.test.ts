import type { ResponseHook } from '@colapi/server-koa';
import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { withHeaders } from '@colapi/wire-format';
import { expect } from 'chai';
import { expectStatus } from './helpers.js';

/**
 * Documents are written as text and parsed only when a hook reads them: what a hook changes in place,
 * or returns, is what goes out; a hook that only adds headers (withHeaders) leaves the document as written.
 */
const hook: ResponseHook = (response, request) => {
  const mode = request.headers['x-hook'];
  if (mode === 'in-place') {
    const body = response.body as { meta?: Record<string, unknown>; data: { attributes: Record<string, unknown> } };
    body.data.attributes.name = 'changed in place';
    body.meta = { by: 'hook' };
    return;
  }
  if (mode === 'replaced') return { ...response, body: { meta: { replaced: true } } };
  if (mode === 'headers') return withHeaders(response, { 'x-hooked': 'yes' });
};

describeEachDatabase(
  'Format A: an onResponse hook reads and changes the document',
  (t) => {
    beforeEach(() => t().seed());

    it('a document changed in place goes out changed', async () => {
      const res = expectStatus(await t().http.get('/api/person/1', { headers: { 'x-hook': 'in-place' } }), 200);
      expect(res.body.data.attributes.name).to.equal('changed in place');
      expect(res.body.meta).to.deep.equal({ by: 'hook' });
      expect(res.body.data.id).to.equal('1');
    });

    it('a document the hook replaces goes out as the hook gave it', async () => {
      const res = expectStatus(await t().http.get('/api/person', { headers: { 'x-hook': 'replaced' } }), 200);
      expect(res.body).to.deep.equal({ meta: { replaced: true } });
    });

    it('a hook that only adds headers leaves the document byte for byte as without it', async () => {
      const plain = expectStatus(await t().http.get('/api/person?include=articles'), 200);
      const hooked = expectStatus(
        await t().http.get('/api/person?include=articles', { headers: { 'x-hook': 'headers' } }),
        200,
      );
      expect(hooked.headers.get('x-hooked')).to.equal('yes');
      expect(hooked.text).to.equal(plain.text);
    });
  },
  { api: { onResponse: hook } },
);

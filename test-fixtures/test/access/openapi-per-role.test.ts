import { openApiRoute } from '@colapi/browser';
import { expectValidOpenApi } from '@colapi/openapi-check';
import { createApi } from '@colapi/server-koa';
import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import Koa from 'koa';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { ACCESS, bearer, token } from './tenants.js';

interface Document {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  security?: unknown[];
}

describeEachDatabase(
  'access control: the OpenAPI document shows what the caller’s role may do',
  (t) => {
    let server: Server;
    let origin: string;
    before(async () => {
      const { registry, database, format } = t().target;
      const app = new Koa();
      const api = createApi({ registry, database, format, access: ACCESS });
      app.use(openApiRoute('/api/openapi.json', registry, { format, describeFor: api.describeFor! }));
      app.use(api);
      await api.ready;
      server = app.listen(0, '127.0.0.1');
      await once(server, 'listening');
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => server.close());

    const documentFor = async (headers: Record<string, string> = {}) => {
      const res = await fetch(`${origin}/api/openapi.json`, { headers });
      expect(res.status).to.equal(200);
      expect(res.headers.get('vary')).to.match(/Authorization/i);
      const doc = (await res.json()) as Document;
      await expectValidOpenApi(doc as unknown as Record<string, unknown>);
      return doc;
    };
    const methods = (doc: Document, path: string) => Object.keys(doc.paths[path] ?? {}).sort();

    it('a member: its collections, fields and methods only, and the bearer scheme', async () => {
      const doc = await documentFor(bearer(await token('member', { tenant: 1 })).headers);
      const collections = new Set(Object.keys(doc.paths).map((p) => p.split('/')[2]));
      expect([...collections].sort()).to.deep.equal(['article', 'comment', 'eval', 'person', 'tag']);
      expect(methods(doc, '/api/article')).to.deep.equal(['get', 'post']);
      expect(methods(doc, '/api/article/{id}')).to.deep.equal(['delete', 'get', 'patch']);
      expect(methods(doc, '/api/person/{id}')).to.deep.equal(['get', 'patch']);
      expect(methods(doc, '/api/tag/{id}')).to.deep.equal(['get', 'patch']);
      expect(methods(doc, '/api/comment')).to.deep.equal(['get']);
      expect(
        Object.keys(doc.paths)
          .filter((p) => p.startsWith('/api/eval/'))
          .sort(),
      ).to.deep.equal(['/api/eval/article', '/api/eval/person']);
      expect(JSON.stringify(doc.components.schemas)).not.to.contain('birthday');
      expect(doc.components.securitySchemes).to.deep.equal({
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      });
      expect(doc.security).to.deep.equal([{ bearer: [] }, {}]);
    });

    it('the anonymous role: reading tags only', async () => {
      const doc = await documentFor();
      expect(Object.keys(doc.paths).sort()).to.deep.equal(['/api/tag', '/api/tag/{id}']);
      for (const item of Object.values(doc.paths)) expect(Object.keys(item)).to.deep.equal(['get']);
      expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/tag'))).to.equal(true);
    });

    it('a bad token: 401 with WWW-Authenticate, no document', async () => {
      const res = await fetch(`${origin}/api/openapi.json`, { headers: { authorization: 'Bearer nope' } });
      expect(res.status).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.equal('Bearer error="invalid_token"');
    });
  },
  { api: { access: ACCESS }, seed: false },
);

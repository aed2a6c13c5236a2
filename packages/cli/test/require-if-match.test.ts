import { expect } from 'chai';
import { parseArguments, validateConfig } from '../src/index.js';
import { connect, disconnect } from '@colapi/sql-compiler';
import { createLibrary, HttpClient, testDatabaseOrSkip, testedKinds } from '@colapi/test-fixtures/testing';
import { colapi, freePort, line, stop, type Run } from './colapi-process.js';
import { serveLibrary } from './served-library.js';

describe('colapi serve: requireIfMatch', () => {
  it('reads --require-if-match, and requireIfMatch at the root of the configuration', () => {
    expect(parseArguments(['serve', 'sqlite:/x.db', '--require-if-match'], {}, '/w')).to.include({
      requireIfMatch: true,
    });
    expect(parseArguments(['serve', 'sqlite:/x.db'], {}, '/w')).to.not.have.property('requireIfMatch');
    expect(validateConfig({ requireIfMatch: true }, 'c.json')).to.deep.equal({ requireIfMatch: true });
    expect(() => validateConfig({ requireIfMatch: 'yes' }, 'c.json')).to.throw(
      'c.json: requireIfMatch: must be true or false, not "yes"',
    );
  });

  for (const kind of testedKinds()) {
    describe(`from the configuration, on ${kind}`, () => {
      const served = serveLibrary(kind, { requireIfMatch: true } as never);

      it('answers 428 to a write without If-Match in both formats, and writes with the row tag', async () => {
        const { a, b } = served();
        const created = await a.post('/api/tag', { data: { type: 'tag', attributes: { name: `t-${kind}` } } });
        expect(created.status, created.text).to.equal(201);
        const id = created.body.data.id as string;
        const patch = { data: { type: 'tag', id, attributes: { name: `u-${kind}` } } };
        const refused = await a.patch(`/api/tag/${id}`, patch);
        expect(refused.status, refused.text).to.equal(428);
        expect(refused.body.errors[0].source).to.deep.equal({ header: 'If-Match' });
        expect((await b.patch(`/api/tag/${id}`, { name: 'x' })).status).to.equal(428);
        const tag = (await a.get(`/api/tag/${id}`)).headers.get('resource-etag')!;
        const ok = await a.patch(`/api/tag/${id}`, patch, { headers: { 'if-match': tag } });
        expect(ok.status, ok.text).to.equal(200);
        const stale = await b.patch(`/api/tag/${id}`, { name: 'y' }, { headers: { 'if-match': tag } });
        expect(stale.status, stale.text).to.equal(412);
      });
    });
  }

  it('takes --require-if-match on the command line', async function () {
    this.timeout(60_000);
    const db = await testDatabaseOrSkip(this, 'sqlite');
    const sql = connect(db!.url, { pool: { min: 0, max: 1 } });
    let run: Run | undefined;
    try {
      await createLibrary(sql.knex, 'sqlite');
      const port = await freePort();
      run = colapi(['serve', db!.url, '--port', String(port), '--require-if-match']);
      await line(run, /listening on/);
      const http = new HttpClient(`http://127.0.0.1:${port}`, 'application/vnd.api+json');
      const created = await http.post('/api/tag', { data: { type: 'tag', attributes: { name: 'cli' } } });
      expect(created.status, created.text).to.equal(201);
      const id = created.body.data.id as string;
      const refused = await http.delete(`/api/tag/${id}`);
      expect(refused.status, refused.text).to.equal(428);
      const tag = created.headers.get('resource-etag')!;
      expect((await http.delete(`/api/tag/${id}`, { headers: { 'if-match': tag } })).status).to.equal(204);
      // The served document says so: If-Match required, and the 428 of every write of an existing resource.
      const doc = (await http.get('/api/openapi.json')).body;
      expect(doc.components.parameters['If-Match.write']).to.include({ name: 'If-Match', required: true });
      expect(doc.paths['/api/tag/{id}'].delete.responses['428']).to.deep.equal({
        $ref: '#/components/responses/PreconditionRequired',
      });
    } finally {
      await stop(run);
      await disconnect(sql);
      await db?.drop();
    }
  });
});

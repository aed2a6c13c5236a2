import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { call, startOn, type RunningDemo } from './helpers.js';

type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }>; requestBody?: { content: Record<string, { schema: object }> } }>>;
  components: object;
  servers: { url: string }[];
  'x-colapi': { format: string; collections: { name: string }[] };
};

/** The document served by the demo, checked against the OpenAPI 3.1 schema and against the live server. */
describe('demo /api/openapi.json', function () {
  this.timeout(60_000);
  let running: RunningDemo;
  let origin: string;
  let doc: Doc;
  let ajv: InstanceType<typeof Ajv2020.default>;
  before(async () => {
    running = await startOn('sqlite');
    origin = running.demo.origin;
    const res = await call(origin, '/api/openapi.json', { headers: { accept: 'application/json' } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.contain('application/json');
    doc = res.json;
    ajv = new Ajv2020.default({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ components: doc.components }, 'doc');
  });
  after(() => running?.stop());

  const validate = (schema: object, value: unknown, what: string) => {
    // The schema's references point into the document, which Ajv knows as "doc".
    const check = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object);
    const ok = check(value);
    expect(ok, `${what}: ${JSON.stringify(check.errors?.slice(0, 3), null, 1)}`).to.equal(true);
  };

  it('is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator), with every reference resolving', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as Record<string, unknown>);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).to.equal(undefined);
    expect(validator.version).to.equal('3.1');
    expect(() => validator.resolveRefs()).not.to.throw();
  });

  it('names the origin it was fetched from and describes every collection', () => {
    expect(doc.servers).to.deep.equal([{ url: origin }]);
    expect(doc['x-colapi'].collections.map((c) => c.name)).to.deep.equal(['books', 'authors', 'reviews', 'tags', 'publishers']);
    expect(Object.keys(doc.paths)).to.include.members(['/api/books', '/api/books/{id}/tags/{related_id}', '/api/eval/books', '/api/books/{id}/relationships/publisher']);
    expect(doc.paths).not.to.have.property('/api/eval/publishers');
  });

  it('offers on every path exactly the methods the server allows there', async () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      const url = path.replace('{id}', '1').replace('{related_id}', '1');
      const res = await call(origin, url, { method: 'OPTIONS' });
      expect(res.status, path).to.equal(204);
      const allowed = res.headers.get('allow')!.split(', ').filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
      const documented = Object.keys(item).map((m) => m.toUpperCase());
      // A to-one relationship routes POST and DELETE only to answer 405; the document leaves them out.
      const toOneExtras = allowed.filter((m) => !documented.includes(m));
      expect(documented.filter((m) => !allowed.includes(m)), `${path} documents more than allowed`).to.deep.equal([]);
      if (toOneExtras.length) {
        expect(path, `${path} allows ${toOneExtras} undocumented`).to.match(/\/relationships\/(author|publisher|book)$/);
        expect(['POST', 'DELETE']).to.include.members(toOneExtras);
      }
    }
  });

  it('describes the responses the server really gives to every GET', async () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!item.get) continue;
      let url = path.replace('{id}', '1');
      if (url.includes('{related_id}')) {
        const related = await call(origin, url.replace('/{related_id}', ''));
        const first = related.json.data[0];
        if (!first) continue;
        url = url.replace('{related_id}', first.id);
      }
      if (url.startsWith('/api/eval/')) url += `?functions=${encodeURIComponent(JSON.stringify([{ name: 'count', field: 'id' }]))}`;
      const res = await call(origin, url);
      expect(res.status, `${url}: ${res.text}`).to.equal(200);
      const media = Object.keys(item.get.responses['200']!.content!)[0]!;
      validate(item.get.responses['200']!.content![media]!.schema, res.json, url);
    }
  });

  it('describes the error documents and the bodies clients send', async () => {
    const missing = await call(origin, '/api/books/999999');
    expect(missing.status).to.equal(404);
    validate(doc.paths['/api/books/{id}']!.get!.responses['4XX']!.content!['application/vnd.api+json']!.schema, missing.json, 'a 404');
    const create = doc.paths['/api/books']!.post!.requestBody!.content['application/vnd.api+json']!.schema;
    const body = { data: { type: 'books', attributes: { title: 'Schema-checked', published_on: 'CURRENT_DATE' }, relationships: { author: { data: { type: 'authors', id: '2' } } } } };
    validate(create, body, 'the create body');
    const created = await call(origin, '/api/books', { method: 'POST', json: body });
    expect(created.status).to.equal(201);
    validate(doc.paths['/api/books']!.post!.responses['201']!.content!['application/vnd.api+json']!.schema, created.json, 'the created document');
  });
});

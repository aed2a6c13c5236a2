import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { call, startOn, type RunningDemo } from './helpers.js';

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<string, { content?: Record<string, { schema: object }> }>;
        requestBody?: { content: Record<string, { schema: object }> };
      }
    >
  >;
  components: object;
  servers: { url: string }[];
  'x-colapi': { format: string; collections: { name: string }[] };
};

const MEDIA: Record<string, string> = { jsonapi: 'application/vnd.api+json', legacy: 'application/json' };

/** The document served by the demo, checked against the OpenAPI 3.1 schema and against the live server. */
for (const format of ['jsonapi', 'legacy'])
  describe(`demo /api/openapi.json (${format})`, function () {
    const media = MEDIA[format]!;
    const get = (path: string) => call(origin, path, { headers: { accept: media } });
    this.timeout(60_000);
    let running: RunningDemo;
    let origin = '';
    let doc: Doc;
    let ajv: InstanceType<typeof Ajv2020.default>;
    before(async () => {
      running = await startOn('sqlite', { format });
      origin = running.demo.origin;
      const res = await get('/api/openapi.json');
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
      const check = ajv.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object,
      );
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
      expect(doc['x-colapi'].format).to.equal(format);
      expect(doc['x-colapi'].collections.map((c) => c.name)).to.deep.equal([
        'books',
        'authors',
        'reviews',
        'tags',
        'publishers',
      ]);
      expect(Object.keys(doc.paths)).to.include.members([
        '/api/books',
        '/api/books/{id}/tags/{related_id}',
        '/api/eval/books',
      ]);
      // Format B has no JSON:API relationship endpoints.
      expect(Object.keys(doc.paths).includes('/api/books/{id}/relationships/publisher')).to.equal(format === 'jsonapi');
      expect(doc.paths).not.to.have.property('/api/eval/publishers');
    });

    it('offers on every path exactly the methods the server allows there', async () => {
      for (const [path, item] of Object.entries(doc.paths)) {
        const url = path.replace('{id}', '1').replace('{related_id}', '1');
        const res = await call(origin, url, { method: 'OPTIONS', headers: { accept: media } });
        expect(res.status, path).to.equal(204);
        const allowed = res.headers
          .get('allow')!
          .split(', ')
          .filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
        const documented = Object.keys(item).map((m) => m.toUpperCase());
        // A to-one relationship routes POST and DELETE only to answer 405; the document leaves them out.
        const toOneExtras = allowed.filter((m) => !documented.includes(m));
        expect(
          documented.filter((m) => !allowed.includes(m)),
          `${path} documents more than allowed`,
        ).to.deep.equal([]);
        if (toOneExtras.length) {
          expect(path, `${path} allows ${toOneExtras} undocumented`).to.match(
            /\/relationships\/(author|publisher|book)$/,
          );
          expect(['POST', 'DELETE']).to.include.members(toOneExtras);
        }
      }
    });

    it('describes the responses the server really gives to every GET', async () => {
      for (const [path, item] of Object.entries(doc.paths)) {
        if (!item.get) continue;
        let url = path.replace('{id}', '1');
        if (url.includes('{related_id}')) {
          const related = await get(url.replace('/{related_id}', ''));
          const first = format === 'legacy' ? related.json.objects[0] : related.json.data[0];
          if (!first) continue;
          url = url.replace('{related_id}', String(first.id));
        }
        const functions = [{ name: 'count', field: 'id' }];
        if (url.startsWith('/api/eval/')) {
          url +=
            format === 'legacy'
              ? `?q=${encodeURIComponent(JSON.stringify({ functions }))}`
              : `?functions=${encodeURIComponent(JSON.stringify(functions))}`;
        }
        const res = await get(url);
        expect(res.status, `${url}: ${res.text}`).to.equal(200);
        const media = Object.keys(item.get.responses['200']!.content!)[0]!;
        validate(item.get.responses['200']!.content![media]!.schema, res.json, url);
      }
    });

    it('describes the error documents and the bodies clients send', async () => {
      const missing = await get('/api/books/999999');
      expect(missing.status).to.equal(404);
      validate(doc.paths['/api/books/{id}']!.get!.responses['4XX']!.content![media]!.schema, missing.json, 'a 404');
      const create = doc.paths['/api/books']!.post!.requestBody!.content[media]!.schema;
      const body =
        format === 'legacy'
          ? {
              title: 'Schema-checked',
              published_on: 'CURRENT_DATE',
              author: { id: 2 },
              tags: [{ id: 1 }, { name: 'schema-made' }],
            }
          : {
              data: {
                type: 'books',
                attributes: { title: 'Schema-checked', published_on: 'CURRENT_DATE' },
                relationships: { author: { data: { type: 'authors', id: '2' } } },
              },
            };
      validate(create, body, 'the create body');
      const created = await call(origin, '/api/books', {
        method: 'POST',
        json: body,
        headers: { accept: media, 'content-type': media },
      });
      expect(created.status, created.text).to.equal(201);
      validate(
        doc.paths['/api/books']!.post!.responses['201']!.content![media]!.schema,
        created.json,
        'the created document',
      );
    });
  });

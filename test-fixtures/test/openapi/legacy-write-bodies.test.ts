import { openApiDocument } from '@colapi/openapi';
import { schemaChecker } from '@colapi/openapi-check';
import { describeEachDatabase, tableDigest } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { resolve } from './schema-values.js';

type Method = 'POST' | 'PATCH' | 'PUT';
type Document = {
  paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: object }> } }>>;
};

/**
 * Format B's write bodies as the OpenAPI document describes them, held to what the server does with them
 * (issue 29): the `id` of a body, a foreign key column beside its relationship, and a list in a to-one
 * `add`. Each body is checked by the document's schema of its operation (Ajv, as generated clients and
 * validators read it) and sent to the server; both must accept it, or both refuse it (400, nothing changed).
 * The standard dataset: article 3 by person 2, article 4 without author, tags 1-3.
 */
const ACCEPTED = true;
const REFUSED = false;
const UPDATES: Method[] = ['PATCH', 'PUT'];
const WRITES: Method[] = ['POST', 'PATCH', 'PUT'];

/** [what, methods, path (the update's; its collection's for a POST), body, the server accepts it]. */
const CASES: [string, Method[], string, Record<string, unknown>, boolean][] = [
  // The id of an update: optional, and only the URL's own, as a number or its text; null counts as absent.
  ['an update without id', UPDATES, '/api/article/3', { title: 'T' }, ACCEPTED],
  ['its own id as a number', UPDATES, '/api/article/3', { id: 3, title: 'T' }, ACCEPTED],
  ['its own id as text', UPDATES, '/api/article/3', { id: '3', title: 'T' }, ACCEPTED],
  ['an id of null', UPDATES, '/api/article/3', { id: null, title: 'T' }, ACCEPTED],
  ['its own id, where clients choose ids', UPDATES, '/api/tag/2', { id: 2, name: 'n' }, ACCEPTED],
  ['an id that is no key', UPDATES, '/api/article/3', { id: 'three', title: 'T' }, REFUSED],
  ['an id with a leading zero', UPDATES, '/api/article/3', { id: '03', title: 'T' }, REFUSED],
  ['an id with a fraction', UPDATES, '/api/article/3', { id: 3.5, title: 'T' }, REFUSED],
  ['an id that is a boolean', UPDATES, '/api/article/3', { id: true, title: 'T' }, REFUSED],
  ['an id that is a list', UPDATES, '/api/article/3', { id: [3], title: 'T' }, REFUSED],
  ['an id that is an object', UPDATES, '/api/article/3', { id: { id: 3 }, title: 'T' }, REFUSED],
  // The id of a create: where the server generates ids, none (null counts as absent).
  ['a create with an id of null', ['POST'], '/api/article', { id: null, title: 'T' }, ACCEPTED],
  ['a create with an id where ids are generated', ['POST'], '/api/article', { id: 9, title: 'T' }, REFUSED],
  ['a create with a client id', ['POST'], '/api/tag', { id: 9, name: 'n' }, ACCEPTED],
  ['a create with a client id as text', ['POST'], '/api/tag', { id: '9', name: 'n' }, ACCEPTED],
  ['a create with a client id that is no key', ['POST'], '/api/tag', { id: 'nine', name: 'n' }, REFUSED],
  ['a create with a client id of null', ['POST'], '/api/tag', { id: null, name: 'n' }, ACCEPTED],
  // A foreign key column and the relationship that sets it exclude each other, whatever their values.
  ['a foreign key alone', WRITES, '/api/article/4', { author_id: 2 }, ACCEPTED],
  ['a relationship alone', WRITES, '/api/article/4', { author: { id: 2 } }, ACCEPTED],
  ['a foreign key and its relationship', WRITES, '/api/article/4', { author_id: 2, author: { id: 2 } }, REFUSED],
  [
    'a null foreign key and its relationship',
    WRITES,
    '/api/article/4',
    { author_id: null, author: { id: 2 } },
    REFUSED,
  ],
  ['a foreign key and its relationship null', WRITES, '/api/article/4', { author_id: 2, author: null }, REFUSED],
  [
    'a foreign key and a new related instance',
    WRITES,
    '/api/article/4',
    { author_id: 2, author: { name: 'Zed' } },
    REFUSED,
  ],
  [
    'a foreign key and its relationship’s add',
    UPDATES,
    '/api/article/4',
    { author_id: 2, author: { add: { id: 2 } } },
    REFUSED,
  ],
  [
    'a foreign key and its relationship’s remove',
    UPDATES,
    '/api/article/3',
    { author_id: 2, author: { remove: { id: 2 } } },
    REFUSED,
  ],
  [
    'a foreign key and its relationship in a new related instance',
    WRITES,
    '/api/person/2',
    { articles: [{ title: 'N', author_id: 2, author: null }] },
    REFUSED,
  ],
  [
    'a foreign key and its relationship in an existing related instance',
    UPDATES,
    '/api/person/2',
    { articles: { add: [{ id: 4, author_id: 2, author: { id: 2 } }] } },
    REFUSED,
  ],
  [
    'a foreign key in an existing related instance',
    UPDATES,
    '/api/person/2',
    { articles: { add: [{ id: 4, title: 'N' }] } },
    ACCEPTED,
  ],
  // A to-one add takes one object; a list, of one element too, is a to-many's.
  ['a to-one add of an object', UPDATES, '/api/article/4', { author: { add: { id: 3 } } }, ACCEPTED],
  ['a to-one add of a list of one', UPDATES, '/api/article/4', { author: { add: [{ id: 3 }] } }, REFUSED],
  ['a to-one add of an empty list', UPDATES, '/api/article/4', { author: { add: [] } }, REFUSED],
  ['a to-one add of a list of two', UPDATES, '/api/article/4', { author: { add: [{ id: 3 }, { id: 4 }] } }, REFUSED],
];

/** The template of a path, as the document names it: `/api/article/{id}`. */
const templateOf = (path: string) => path.replace(/^(\/api\/[^/]+)\/[^/]+$/, '$1/{id}');
const collectionPath = (path: string) => path.replace(/^(\/api\/[^/]+).*$/, '$1');

describeEachDatabase(
  'Format B write bodies: the OpenAPI document and the server agree',
  (t) => {
    let doc: Document;
    let check: ReturnType<typeof schemaChecker>;
    before(() => {
      const { registry, format } = t().target;
      doc = openApiDocument(registry, { format }) as unknown as Document;
      check = schemaChecker(doc);
    });
    const bodySchema = (method: Method, path: string) =>
      doc.paths[method === 'POST' ? collectionPath(path) : templateOf(path)]![method.toLowerCase()]!.requestBody
        .content['application/json']!.schema;

    for (const [what, methods, path, body, accepted] of CASES) {
      for (const method of methods) {
        const target = method === 'POST' ? collectionPath(path) : path;
        it(`${what}: ${method} ${target} is ${accepted ? 'taken' : 'refused'} by both`, async () => {
          await t().seed();
          const before = await tableDigest(t().target.database.knex);
          const res = await t().http.request(method, target, { body });
          const wrong = check(bodySchema(method, path), body);
          expect(wrong === undefined, `the document: ${wrong ?? 'accepts it'}`).to.equal(accepted);
          if (accepted) {
            expect(res.status, res.text).to.be.oneOf([200, 201]);
          } else {
            expect(res.status, res.text).to.equal(400);
            expect(await tableDigest(t().target.database.knex), 'the tables').to.equal(before);
          }
        });
      }
    }

    // The one thing a schema cannot say: which id the URL names. The document says it in words.
    for (const method of UPDATES) {
      it(`another id than the URL's: ${method} is refused by the server, and the document says so`, async () => {
        await t().seed();
        const before = await tableDigest(t().target.database.knex);
        const res = await t().http.request(method, '/api/article/3', { body: { id: 4, title: 'T' } });
        expect(res.status, res.text).to.equal(400);
        expect(res.body.message).to.match(/"id" is 3 in the URL and cannot be changed to 4/);
        expect(await tableDigest(t().target.database.knex), 'the tables').to.equal(before);
        const update = resolve(bodySchema(method, '/api/article/3'), doc);
        expect(update.properties.id.description).to.match(/the id in the URL/i);
      });
    }
  },
  { format: 'legacy' },
);

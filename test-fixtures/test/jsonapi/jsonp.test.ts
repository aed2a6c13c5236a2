import { describeEachDatabase, type TestResponse } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectError } from './helpers.js';

/** Splits `/**\/name({...});` into the function name and its parsed argument: the JSON:API document. */
function unwrap(res: TestResponse): {
  name: string;
  argument: {
    meta: { status: number } & Record<string, unknown>;
    data?: any;
    errors?: any;
    links?: any;
    jsonapi?: unknown;
  };
} {
  const m = /^\/\*\*\/([A-Za-z_$][\w$.]*)\(([\s\S]*)\);?$/.exec(res.text);
  expect(m, `not a JSONP body: ${res.text.slice(0, 200)}`).to.not.equal(null);
  return { name: m![1]!, argument: JSON.parse(m![2]!) };
}

interface JsonpCase {
  readonly name: string;
  readonly path: string;
  readonly callback: string;
  /** The status in the document's meta, and a check of the document. */
  readonly status: number;
  readonly check: (document: any) => void;
}

const CASES: JsonpCase[] = [
  {
    name: 'a collection',
    path: '/api/person',
    callback: 'handle',
    status: 200,
    check: (d) => expect(d.data).to.have.lengthOf(5),
  },
  {
    name: 'a dotted callback',
    path: '/api/person',
    callback: 'app.handle',
    status: 200,
    check: (d) => expect(d.meta.total).to.equal(5),
  },
  {
    name: 'a callback with $, _ and digits',
    path: '/api/person/1',
    callback: '$_cb.on_data2',
    status: 200,
    check: (d) => expect(d.data.id).to.equal('1'),
  },
  {
    name: 'a related collection',
    path: '/api/person/1/articles',
    callback: 'handle',
    status: 200,
    check: (d) => expect(d.data.map((r: { id: string }) => r.id)).to.deep.equal(['1', '2']),
  },
  {
    name: 'linkage',
    path: '/api/article/1/relationships/author',
    callback: 'handle',
    status: 200,
    check: (d) => expect(d.data).to.deep.equal({ type: 'person', id: '1' }),
  },
  {
    name: 'a null related resource',
    path: '/api/article/4/author',
    callback: 'handle',
    status: 200,
    check: (d) => expect(d.data).to.equal(null),
  },
  {
    name: 'a filtered single resource',
    path: `/api/person?filter[single]=1&filter[objects]=${encodeURIComponent('[{"name":"id","op":"==","val":2}]')}`,
    callback: 'handle',
    status: 200,
    check: (d) => expect(d.data.id).to.equal('2'),
  },
  {
    name: 'an error keeps its status in meta',
    path: '/api/person/99',
    callback: 'handle',
    status: 404,
    check: (d) => expect(d.errors[0].status).to.equal('404'),
  },
  {
    name: 'a bad request keeps its status in meta',
    path: '/api/person?sort=nope',
    callback: 'handle',
    status: 400,
    check: (d) => expect(d.errors[0].source).to.deep.equal({ parameter: 'sort' }),
  },
];

const BAD_CALLBACKS = [
  'alert(1)',
  'a;b',
  '',
  'a b',
  '1abc',
  'a.',
  '.a',
  'a..b',
  '<script>',
  'a-b',
  'a[0]',
  'x'.repeat(200),
  'handle\u2028',
];

describeEachDatabase('Format A: JSONP', (t) => {
  for (const c of CASES) {
    it(`wraps ${c.name}`, async () => {
      const sep = c.path.includes('?') ? '&' : '?';
      const res = await t().http.get(`${c.path}${sep}callback=${encodeURIComponent(c.callback)}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/javascript(;|$)/);
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.text.startsWith(`/**/${c.callback}(`)).to.equal(true);
      const { name, argument } = unwrap(res);
      expect(name).to.equal(c.callback);
      // The document itself, its real status added to its top-level meta (Flask-Restless 1.0).
      expect(argument.jsonapi).to.deep.equal({ version: '1.0' });
      expect(argument).to.include.any.keys('data', 'errors');
      expect(argument.meta.status).to.equal(c.status);
      expect(argument.meta).to.not.have.property('headers');
      c.check(argument);
    });
  }

  it("passes the document itself: argument.data.id is the resource's id", async () => {
    const { argument } = unwrap(await t().http.get('/api/person/2?callback=foo'));
    expect(argument.data.id).to.equal('2');
    expect(argument.data.type).to.equal('person');
    expect(argument.data.attributes.name).to.equal('bob');
  });

  it('wraps the same document as the plain answer, with meta.status added', async () => {
    const plain = await t().http.get('/api/person?sort=-age&page[size]=2');
    const wrapped = unwrap(await t().http.get('/api/person?sort=-age&page[size]=2&callback=handle'));
    const { links: plainLinks, ...plainRest } = plain.body;
    const { links: wrappedLinks, ...wrappedRest } = wrapped.argument;
    expect(wrappedRest).to.deep.equal({ ...plainRest, meta: { ...plainRest.meta, status: 200 } });
    expect(Object.keys(wrapped.argument)).to.deep.equal(Object.keys(plain.body));
    expect(new URL(wrappedLinks.next).searchParams.get('callback')).to.equal('handle');
    expect(new URL(plainLinks.next).searchParams.get('page[number]')).to.equal('2');
  });

  it('answers an error with status 200, the real status in meta.status and in each error object', async () => {
    const res = await t().http.get('/api/person/99?callback=handle');
    expect(res.status).to.equal(200);
    const { argument } = unwrap(res);
    expect(argument).to.not.have.property('data');
    expect(argument.meta).to.deep.equal({ status: 404 });
    expect(argument.errors).to.have.lengthOf(1);
    expect(argument.errors[0].status).to.equal('404');
  });

  for (const callback of BAD_CALLBACKS) {
    it(`answers 400 for callback=${JSON.stringify(callback.length > 20 ? `${callback.slice(0, 10)}…` : callback)}`, async () => {
      const res = await t().http.get(`/api/person?callback=${encodeURIComponent(callback)}`);
      const error = expectError(res, 400, 'callback');
      expect(error.detail).to.contain('callback');
      expect(res.text.startsWith('/**/')).to.equal(false);
    });
  }

  describe('with line separators in the data', () => {
    before(async () => {
      await t().seed({ person: [{ id: 1, name: 'a\u2028b\u2029c</script>' }] });
    });
    after(async () => {
      await t().seed();
    });

    it('escapes U+2028 and U+2029, which end a line in JavaScript', async () => {
      const res = await t().http.get('/api/person/1?callback=handle');
      expect(res.text).to.not.match(/[\u2028\u2029]/);
      expect(unwrap(res).argument.data.attributes.name).to.equal('a\u2028b\u2029c</script>');
    });
  });
});

describeEachDatabase('Format A: JSONP on writes', (t) => {
  beforeEach(() => t().seed());

  it("wraps a created resource: status 201 in meta, the document's data its resource", async () => {
    const res = await t().http.post('/api/person?callback=created', {
      data: { type: 'person', attributes: { name: 'Zoe', age: 30 } },
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/javascript/);
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    const { name, argument } = unwrap(res);
    expect(name).to.equal('created');
    expect(argument.meta.status).to.equal(201);
    expect(argument.data.type).to.equal('person');
    expect(argument.data.attributes).to.include({ name: 'Zoe', age: 30 });
    // The real Location header still goes out.
    expect(res.headers.get('location')).to.match(new RegExp(`/api/person/${argument.data.id}$`));
  });

  it('sends a write without content (204) as it is', async () => {
    const res = await t().http.delete('/api/person/5?callback=gone');
    expect(res.status).to.equal(204);
    expect(res.text).to.equal('');
  });
});

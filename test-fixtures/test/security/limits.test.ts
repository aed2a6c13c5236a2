import { describeEachDatabase, filterParam, type TestResponse } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';

/*
 * Every limit of createApi, set low, in both formats: the answer at the limit and one past it. The defaults
 * (docs/security.md) are checked on a server without options.
 */
const LIMITS = { maxPageSize: 5, maxIncludeDepth: 1, maxFilterDepth: 2, maxFilterNodes: 3 };
const api = { limits: LIMITS, bodyLimit: 2000, maxUrlLength: 700 };

const age = { name: 'age', op: '>', val: 1 };
const nest = (depth: number) => {
  let f: unknown = age;
  for (let i = 1; i < depth; i++) f = { or: [f] };
  return f;
};
const q = (search: unknown) => `q=${encodeURIComponent(JSON.stringify(search))}`;

function expectJsonApiError(res: TestResponse, status: number, parameter?: string): void {
  expect(res.status, res.text).to.equal(status);
  expect(res.body.errors[0].status).to.equal(String(status));
  if (parameter) expect(res.body.errors[0].source).to.deep.equal({ parameter });
}

function expectMessage(res: TestResponse, status: number): void {
  expect(res.status, res.text).to.equal(status);
  expect(res.body).to.have.all.keys('message');
}

describeEachDatabase(
  'limits: Format A with createApi limits set low',
  (t) => {
    it('page[size] up to maxPageSize, 400 beyond', async () => {
      expect((await t().http.get('/api/person?page[size]=5')).body.data).to.have.lengthOf(5);
      expectJsonApiError(await t().http.get('/api/person?page[size]=6'), 400, 'page[size]');
    });

    it('include paths up to maxIncludeDepth relationships, 400 beyond', async () => {
      expect((await t().http.get('/api/article?include=author')).status).to.equal(200);
      expectJsonApiError(await t().http.get('/api/article?include=author.articles'), 400, 'include');
    });

    it('filters nested up to maxFilterDepth levels, 400 beyond (and/or, has and any alike)', async () => {
      expect((await t().http.get(`/api/person?${filterParam([nest(2)])}`)).status).to.equal(200);
      expectJsonApiError(await t().http.get(`/api/person?${filterParam([nest(3)])}`), 400, 'filter[objects]');
      const has = { name: 'author', op: 'has', val: { name: 'articles', op: 'any', val: age } };
      expectJsonApiError(await t().http.get(`/api/article?${filterParam([has])}`), 400, 'filter[objects]');
    });

    it('at most maxFilterNodes filter objects, 400 beyond', async () => {
      expect((await t().http.get(`/api/person?${filterParam([age, age, age])}`)).status).to.equal(200);
      expectJsonApiError(
        await t().http.get(`/api/person?${filterParam([age, age, age, age])}`),
        400,
        'filter[objects]',
      );
    });

    it('a body larger than bodyLimit is 413 with an error document, and nothing is written', async () => {
      const big = { data: { type: 'person', attributes: { name: 'x'.repeat(2100) } } };
      expectJsonApiError(await t().http.post('/api/person', big), 413);
      const small = { data: { type: 'person', attributes: { name: 'x'.repeat(90) } } };
      expect((await t().http.post('/api/person', small)).status).to.equal(201);
      expect((await t().http.get('/api/person?page[size]=5&page[number]=2')).body.meta.total).to.equal(6);
    });

    it('a URL longer than maxUrlLength is 414 with an error document', async () => {
      expect((await t().http.get(`/api/person?sort=${'name,'.repeat(40)}age`)).status).to.equal(200);
      expectJsonApiError(await t().http.get(`/api/person?sort=${'name,'.repeat(150)}age`), 414);
    });
  },
  { api },
);

describeEachDatabase(
  'limits: Format B with createApi limits set low',
  (t) => {
    it('results_per_page above maxPageSize is lowered to it', async () => {
      const res = await t().http.get('/api/person?results_per_page=50');
      expect(res.body.objects).to.have.lengthOf(5);
      expect(res.headers.get('link')).to.include('results_per_page=5');
    });

    it('filters of q are bounded in depth and number', async () => {
      expect((await t().http.get(`/api/person?${q({ filters: [nest(2)] })}`)).status).to.equal(200);
      expectMessage(await t().http.get(`/api/person?${q({ filters: [nest(3)] })}`), 400);
      expectMessage(await t().http.get(`/api/person?${q({ filters: [age, age, age, age] })}`), 400);
      expectMessage(
        await t().http.get(`/api/person?${q({ filters: [{ name: 'author__articles__title', op: '==', val: 'x' }] })}`),
        400,
      );
    });

    it('related instances in a write nest up to maxIncludeDepth levels', async () => {
      const nested = { title: 'n', author: { name: 'a', articles: [{ title: 'b' }] } };
      expectMessage(await t().http.post('/api/article', nested), 400);
      expect((await t().http.post('/api/article', { title: 'n', author: { name: 'a' } })).status).to.equal(201);
    });

    it('a body larger than bodyLimit is 413 and a URL longer than maxUrlLength is 414, as {message}', async () => {
      expectMessage(await t().http.post('/api/person', { name: 'x'.repeat(2100) }), 413);
      expectMessage(await t().http.get(`/api/person?${q({ filters: Array(30).fill(age) })}`), 414);
    });
  },
  { format: 'legacy', api },
);

describeEachDatabase('limits: the defaults', (t) => {
  it('pages of at most 100, filters 8 deep and 100 objects, includes 3 deep, URLs of 8192 characters, 50 functions, bodies of 1 MB', async () => {
    expect((await t().http.get('/api/person?page[size]=100')).status).to.equal(200);
    expectJsonApiError(await t().http.get('/api/person?page[size]=101'), 400, 'page[size]');
    expect((await t().http.get(`/api/person?${filterParam([nest(8)])}`)).status).to.equal(200);
    expectJsonApiError(await t().http.get(`/api/person?${filterParam([nest(9)])}`), 400, 'filter[objects]');
    expectJsonApiError(
      await t().http.get(`/api/person?${filterParam(Array(101).fill({ name: 'id', op: '>', val: 0 }))}`),
      400,
      'filter[objects]',
    );
    expect((await t().http.get('/api/person?include=articles.comments.author')).status).to.equal(200);
    expectJsonApiError(await t().http.get('/api/person?include=articles.comments.author.articles'), 400, 'include');
    expectJsonApiError(await t().http.get(`/api/person?sort=${'name,'.repeat(1700)}age`), 414);
    const fns = (n: number) => encodeURIComponent(JSON.stringify(Array(n).fill({ name: 'count', field: 'id' })));
    expect((await t().http.get(`/api/eval/person?functions=${fns(50)}`)).body.data).to.have.lengthOf(50);
    expectJsonApiError(await t().http.get(`/api/eval/person?functions=${fns(51)}`), 400, 'functions');
    const body = { data: { type: 'person', attributes: { name: 'x'.repeat(1024 * 1024) } } };
    expectJsonApiError(await t().http.post('/api/person', body), 413);
  });
});

import { describeEachDatabase, filterParam } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectError } from './helpers.js';

const byName = (name: string) => filterParam([{ name: 'name', op: '==', val: name }]);

interface SingleCase {
  readonly name: string;
  readonly query: string;
  /** The id of the one resource, or the status of the error. */
  readonly expected: { id: string } | { status: number; parameter?: string };
}

const CASES: SingleCase[] = [
  { name: 'exactly one match', query: `${byName('bob')}&filter[single]=1`, expected: { id: '2' } },
  {
    name: 'one match by a relation filter',
    query: `${filterParam([{ name: 'comments', op: 'any', val: { name: 'content', op: '==', val: 'Nice' } }])}&filter[single]=1`,
    expected: { id: '1' },
  },
  { name: 'no match', query: `${byName('nobody')}&filter[single]=1`, expected: { status: 404 } },
  {
    name: 'several matches',
    query: `${filterParam([{ name: 'age', op: '>=', val: 18 }])}&filter[single]=1`,
    expected: { status: 404 },
  },
  {
    name: 'two matches',
    query: `${filterParam([{ name: 'age', op: 'in', val: [17, 18] }])}&filter[single]=1`,
    expected: { status: 404 },
  },
  { name: 'several matches without a filter', query: 'filter[single]=1', expected: { status: 404 } },
  { name: 'filter[single]=0 is a list', query: `${byName('bob')}&filter[single]=0`, expected: { id: '[2]' } },
  {
    name: 'filter[single]=2',
    query: `${byName('bob')}&filter[single]=2`,
    expected: { status: 400, parameter: 'filter[single]' },
  },
  {
    name: 'filter[single]=true',
    query: `${byName('bob')}&filter[single]=true`,
    expected: { status: 400, parameter: 'filter[single]' },
  },
  {
    name: 'an empty filter[single]',
    query: `${byName('bob')}&filter[single]=`,
    expected: { status: 400, parameter: 'filter[single]' },
  },
];

describeEachDatabase('Format A: filter[single]', (t) => {
  for (const c of CASES) {
    it(c.name, async () => {
      const path = `/api/person?${c.query}`;
      const res = await t().http.get(path);
      if ('status' in c.expected) {
        expectError(res, c.expected.status, c.expected.parameter);
        return;
      }
      expect(res.status, res.text).to.equal(200);
      if (c.expected.id.startsWith('[')) {
        expect(res.body.data).to.be.an('array');
        expect(res.body.data.map((r: { id: string }) => r.id)).to.deep.equal(JSON.parse(c.expected.id).map(String));
        expect(res.body.meta.total).to.equal(1);
        return;
      }
      expect(res.body.data).to.be.an('object').and.not.an('array');
      expect(res.body.data.id).to.equal(c.expected.id);
      expect(res.body.data.type).to.equal('person');
      expect(res.body.links).to.deep.equal({ self: `${t().target.origin}${path.replace(/"/g, '%22')}` });
      expect(res.body).to.not.have.property('meta');
    });
  }

  it('shows the one resource in full, as a fetch by id does', async () => {
    const single = await t().http.get(`/api/person?${byName('Alice')}&filter[single]=1`);
    const fetched = await t().http.get('/api/person/1');
    expect(single.body.data).to.deep.equal(fetched.body.data);
  });

  it('applies sparse fieldsets and includes to the one resource', async () => {
    const res = await t().http.get(
      `/api/article?${filterParam([{ name: 'title', op: '==', val: 'Databases 101' }])}&filter[single]=1&fields[article]=title,author&include=author&fields[person]=name`,
    );
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.attributes).to.deep.equal({ title: 'Databases 101' });
    expect(res.body.data.relationships.author.data).to.deep.equal({ type: 'person', id: '2' });
    expect(res.body.included).to.have.lengthOf(1);
    expect(res.body.included[0]).to.include({ type: 'person', id: '2' });
    expect(res.body.included[0].attributes).to.deep.equal({ name: 'bob' });
  });

  it('answers 404 with a detail saying why', async () => {
    const none = expectError(await t().http.get(`/api/person?${byName('nobody')}&filter[single]=1`), 404);
    const many = expectError(await t().http.get('/api/person?filter[single]=1'), 404);
    expect(none.detail).to.not.equal(many.detail);
  });

  it('works on a related collection', async () => {
    const res = await t().http.get(
      `/api/person/1/articles?${filterParam([{ name: 'title', op: 'like', val: 'Hello%' }])}&filter[single]=1`,
    );
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.id).to.equal('1');
    const many = await t().http.get('/api/person/1/articles?filter[single]=1');
    expectError(many, 404);
  });
});

import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';

describeEachDatabase('Format A: fetching resources', (t) => {
  it('lists a collection as a paged document with meta.total', async () => {
    const res = await t().http.get('/api/person');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/vnd\.api\+json/);
    expect(res.body.meta.total).to.equal(5);
    expect(res.body.data.map((r: { id: string }) => r.id)).to.deep.equal(['1', '2', '3', '4', '5']);
    const alice = res.body.data[0];
    expect(alice.type).to.equal('person');
    expect(alice.attributes).to.deep.equal({
      name: 'Alice',
      age: 25,
      other: 1.5,
      birthday: '1999-01-15',
      birth_datetime: '1999-01-15T08:30:00',
      bedtime: '22:30:00',
      is_minor: false,
    });
    expect(alice.links.self).to.equal(`${t().target.origin}/api/person/1`);
    expect(alice.relationships.articles.data).to.deep.equal([
      { type: 'article', id: '1' },
      { type: 'article', id: '2' },
    ]);
    expect(alice.relationships.articles.links).to.deep.equal({
      self: `${t().target.origin}/api/person/1/relationships/articles`,
      related: `${t().target.origin}/api/person/1/articles`,
    });
  });

  it('fetches one resource with fractions of seconds kept', async () => {
    const res = await t().http.get('/api/person/2');
    expect(res.status).to.equal(200);
    expect(res.body.data.attributes.birth_datetime).to.equal('2007-06-01T12:00:00.25');
    expect(res.body.data.attributes.is_minor).to.equal(true);
    const dave = await t().http.get('/api/person/4');
    expect(dave.body.data.attributes.bedtime).to.equal('23:15:30.5');
  });

  it('shows a to-one relationship as linkage and not the foreign key as an attribute', async () => {
    const res = await t().http.get('/api/article/3');
    expect(res.body.data.attributes).to.deep.equal({ title: 'Databases 101', publishtime: '2021-05-05T09:30:00' });
    expect(res.body.data.relationships.author.data).to.deep.equal({ type: 'person', id: '2' });
    expect(res.body.data.relationships.tags.data).to.deep.equal([{ type: 'tag', id: '2' }]);
    const untitled = await t().http.get('/api/article/4');
    expect(untitled.body.data.relationships.author.data).to.equal(null);
  });

  it('reads intervals as whole seconds and network addresses as text', async () => {
    const task = await t().http.get('/api/task/1');
    expect(task.body.data.attributes).to.deep.equal({ title: 'write', duration: 3600, due: '2024-01-01' });
    const net = await t().http.get('/api/network/1');
    expect(net.body.data.attributes.address).to.equal('192.168.1.5');
  });
});

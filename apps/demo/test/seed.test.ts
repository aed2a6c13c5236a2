import { expect } from 'chai';
import { generateBookshop } from '../src/seed-data.js';
import { call, startOn, type RunningDemo } from './helpers.js';
import { startDemo, type Demo } from '../src/demo-app.js';

describe('demo seed data', () => {
  it('is the same on every run, and a few hundred rows', () => {
    const a = generateBookshop();
    const b = generateBookshop();
    expect(a).to.deep.equal(b);
    const total = Object.values(a).reduce((n, rows) => n + rows.length, 0);
    expect(total).to.be.within(300, 1500);
    expect(a.books).to.have.length(160);
    expect(a.authors).to.have.length(40);
  });

  it('has rows for every relationship kind, nulls and virtual-attribute edge cases', () => {
    const data = generateBookshop();
    expect(data.books!.every((b) => typeof b.author_id === 'number')).to.equal(true);
    expect(data.books!.some((b) => b.publisher_id === null)).to.equal(true);
    expect(data.book_tags!.length).to.be.greaterThan(data.books!.length);
    expect(data.reviews!.length).to.be.greaterThan(200);
    expect(data.authors!.some((a) => a.first_name === null)).to.equal(true);
    const pairs = data.book_tags!.map((r) => `${r.book_id}/${r.tag_id}`);
    expect(new Set(pairs).size).to.equal(pairs.length);
  });
});

describe('demo seeding on start', () => {
  let running: RunningDemo;
  let restarted: Demo | undefined;
  before(async () => {
    running = await startOn('sqlite');
  });
  after(async () => {
    await restarted?.close();
    await running?.stop();
  });

  it('seeds empty tables on first start', async () => {
    expect(running.demo.seeded).to.be.greaterThan(300);
    const res = await call(running.demo.origin, '/api/books?page[size]=1');
    expect(res.json.meta.total).to.equal(160);
  });

  it('does not seed again when the tables hold data, and keeps what users changed', async () => {
    const { origin } = running.demo;
    const created = await call(origin, '/api/tags', {
      method: 'POST',
      json: { data: { type: 'tags', attributes: { name: 'kept-across-restarts' } } },
    });
    expect(created.status).to.equal(201);
    await running.demo.close();
    const again = (restarted = await startDemo({ databaseUrl: running.db.url }));
    expect(again.seeded).to.equal(0);
    const tags = await call(
      again.origin,
      `/api/tags?filter[objects]=${encodeURIComponent(JSON.stringify([{ name: 'name', op: '==', val: 'kept-across-restarts' }]))}`,
    );
    expect(tags.json.data).to.have.length(1);
    const books = await call(again.origin, '/api/books?page[size]=1');
    expect(books.json.meta.total).to.equal(160);
  });
});

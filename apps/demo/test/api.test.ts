import { expect } from 'chai';
import { call, kinds, mustReach, startOn, type RunningDemo } from './helpers.js';

const filter = (f: unknown) => `filter[objects]=${encodeURIComponent(JSON.stringify(f))}`;

/** The bookshop through Format A on every reachable database: the same rows, the same answers. */
for (const kind of kinds()) {
  describe(`demo API on ${kind}`, () => {
    let running: RunningDemo | undefined;
    let origin = '';
    before(async function () {
      this.timeout(120_000);
      try {
        running = await startOn(kind);
      } catch (error) {
        if (mustReach()) throw error;
        console.warn(`  ! ${kind} is not reachable (${(error as Error).message}); skipping the demo on it`);
        this.skip();
      }
      origin = running!.demo.origin;
    });
    after(() => running?.stop());

    it('lists books with paging links and the seeded total', async () => {
      const res = await call(origin, '/api/books?page[size]=5&page[number]=2&sort=id');
      expect(res.status).to.equal(200);
      expect(res.json.meta.total).to.equal(160);
      expect(res.json.data.map((b: { id: string }) => b.id)).to.deep.equal(['6', '7', '8', '9', '10']);
      expect(res.json.links.next).to.contain('page[number]=3');
    });

    it('includes the author (belongs-to) and shows the virtual attribute full_name', async () => {
      const res = await call(origin, '/api/books/1?include=author,publisher');
      expect(res.status).to.equal(200);
      const author = res.json.included.find((r: { type: string }) => r.type === 'authors');
      expect(author.attributes.full_name).to.equal(`${author.attributes.first_name} ${author.attributes.last_name}`);
      expect(res.json.data.relationships.author.data).to.deep.equal({ type: 'authors', id: author.id });
    });

    it('reaches has-many and many-to-many relationships, and filters across them', async () => {
      const reviews = await call(origin, '/api/books/1/reviews');
      expect(reviews.status).to.equal(200);
      expect(reviews.json.data.every((r: { type: string }) => r.type === 'reviews')).to.equal(true);
      const poetry = await call(
        origin,
        `/api/books?${filter([{ name: 'tags', op: 'any', val: { name: 'name', op: '==', val: 'poetry' } }])}&include=tags&page[size]=100`,
      );
      expect(poetry.json.data.length).to.be.greaterThan(0);
      for (const book of poetry.json.data) {
        const tagIds = book.relationships.tags.data.map((t: { id: string }) => t.id);
        const names = poetry.json.included
          .filter((t: { id: string }) => tagIds.includes(t.id))
          .map((t: { attributes: { name: string } }) => t.attributes.name);
        expect(names).to.include('poetry');
      }
    });

    it('filters and sorts on dates, numbers and booleans', async () => {
      const res = await call(
        origin,
        `/api/books?${filter([
          { name: 'published_on', op: '>=', val: '2000-01-01' },
          { name: 'in_print', op: '==', val: true },
        ])}&sort=-price&page[size]=100`,
      );
      expect(res.status).to.equal(200);
      const prices = res.json.data.map((b: { attributes: { price: number } }) => b.attributes.price);
      expect(prices).to.deep.equal([...prices].sort((a, b) => b - a));
      for (const b of res.json.data) {
        expect(b.attributes.published_on >= '2000-01-01').to.equal(true);
        expect(b.attributes.in_print).to.equal(true);
      }
    });

    it('evaluates functions', async () => {
      const functions = encodeURIComponent(
        JSON.stringify([
          { name: 'count', field: 'id' },
          { name: 'max', field: 'rating' },
        ]),
      );
      const res = await call(origin, `/api/eval/reviews?functions=${functions}`);
      expect(res.status).to.equal(200);
      expect(res.json.data[0]).to.be.greaterThan(200);
      expect(res.json.data[1]).to.equal(5);
    });

    it('creates with ids after the seeded ones, and updates', async () => {
      const created = await call(origin, '/api/books', {
        method: 'POST',
        json: {
          data: {
            type: 'books',
            attributes: { title: 'A New Book', published_on: '2025-01-02', price: 12.5, in_print: true },
            relationships: { author: { data: { type: 'authors', id: '3' } } },
          },
        },
      });
      expect(created.status, created.text).to.equal(201);
      expect(Number(created.json.data.id)).to.be.greaterThan(160);
      const id = created.json.data.id;
      const updated = await call(origin, `/api/books/${id}`, {
        method: 'PATCH',
        json: { data: { type: 'books', id, attributes: { price: 9.99 } } },
      });
      expect(updated.status).to.equal(200);
      expect(updated.json.data.attributes.price).to.equal(9.99);
      const review = await call(origin, '/api/reviews', {
        method: 'POST',
        json: {
          data: {
            type: 'reviews',
            attributes: { rating: 4, reviewer: 'tester', created_at: '2025-01-03T10:00:00' },
            relationships: { book: { data: { type: 'books', id } } },
          },
        },
      });
      expect(review.status, review.text).to.equal(201);
      expect(review.json.data.attributes.created_at).to.equal('2025-01-03T10:00:00');
    });

    it('refuses what a collection did not register', async () => {
      const patch = await call(origin, '/api/reviews/1', {
        method: 'PATCH',
        json: { data: { type: 'reviews', id: '1', attributes: { rating: 1 } } },
      });
      expect(patch.status).to.equal(405);
      expect(patch.headers.get('allow')).to.equal('GET');
      const evalPublishers = await call(origin, '/api/eval/publishers?functions=[]');
      expect(evalPublishers.status).to.equal(404);
    });

    it('answers 409 when deleting an author who still has books', async () => {
      const res = await call(origin, '/api/authors/1', { method: 'DELETE' });
      expect(res.status).to.equal(409);
    });
  });
}

describe('demo observability', () => {
  let running: RunningDemo;
  before(async () => {
    running = await startOn('sqlite');
  });
  after(() => running?.stop());

  it('splits the time of an API request in Server-Timing', async () => {
    const res = await call(running.demo.origin, '/api/books?page[size]=1');
    expect(res.headers.get('server-timing')).to.match(/^parse;dur=[\d.]+, query;dur=[\d.]+, encode;dur=[\d.]+$/);
  });

  it('serves the browsable page at / with a strict content security policy', async () => {
    const res = await fetch(`${running.demo.origin}/`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.contain('text/html');
    expect(res.headers.get('content-security-policy')).to.contain("default-src 'self'");
    expect(await res.text()).to.contain('browser.js');
  });
});

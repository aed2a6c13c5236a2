import { expect } from 'chai';
import { linkHeader, listObject, MAX_LINK_HEADER, pageCounts } from '../src/index.js';
import { node } from './fixtures.js';

const page = (number: number, size: number) => ({ offset: (number - 1) * size, limit: size, number, size });
const PERSON = 'http://example.com/api/person';

describe('Format B list objects', () => {
  describe('pageCounts', () => {
    it('counts results and pages from the total', () => {
      expect(pageCounts(page(2, 10), 35, 10)).to.deep.equal({ results: 35, pages: 4, page: 2, size: 10 });
    });

    it('has no pages when nothing matches', () => {
      expect(pageCounts(page(1, 10), 0, 0)).to.deep.equal({ results: 0, pages: 0, page: 1, size: 10 });
    });

    it('counts within the window of limit and offset', () => {
      expect(pageCounts({ ...page(1, 5), window: { offset: 2, limit: 7 } }, 35, 5)).to.deep.equal({
        results: 7,
        pages: 2,
        page: 1,
        size: 5,
      });
      // The window runs past the end of the rows.
      expect(pageCounts({ ...page(1, 5), window: { offset: 30, limit: 10 } }, 35, 5)).to.deep.equal({
        results: 5,
        pages: 1,
        page: 1,
        size: 5,
      });
      expect(pageCounts({ ...page(1, 5), window: { offset: 40 } }, 35, 0)).to.deep.equal({
        results: 0,
        pages: 0,
        page: 1,
        size: 5,
      });
    });

    it('without a total, counts the rows seen so far', () => {
      expect(pageCounts(page(3, 10), undefined, 4)).to.deep.equal({ results: 24, pages: 3, page: 3, size: 10 });
    });
  });

  describe('listObject', () => {
    it('wraps the objects with num_results, total_pages and page', () => {
      const objects = [node('person', '1', { id: 1, name: 'Ann' }, {}, { articles: [] })];
      expect(listObject(objects, { results: 11, pages: 2, page: 2, size: 10 })).to.deep.equal({
        num_results: 11,
        total_pages: 2,
        page: 2,
        objects: [{ id: 1, name: 'Ann', age: null, born: null, initial: null, articles: [] }],
      });
    });

    it('is an object even when empty, never a bare list', () => {
      expect(listObject([], { results: 0, pages: 0, page: 1, size: 10 })).to.deep.equal({
        num_results: 0,
        total_pages: 0,
        page: 1,
        objects: [],
      });
    });
  });

  describe('linkHeader', () => {
    it("is left out rather than longer than 8 KB: a long q, repeated in each link, would pass proxies' limits", () => {
      const q = `{"filters":[{"or":[${Array.from({ length: 60 }, (_, i) => `{"name":"id","op":"in","val":[${i},${i + 1}]}`).join(',')}]}]}`;
      const long = new URL(`${PERSON}?q=${encodeURIComponent(q)}`);
      expect(linkHeader(long, { results: 30, pages: 3, page: 2, size: 10 })).to.equal(undefined);
      const short = new URL(`${PERSON}?q=${encodeURIComponent('{"filters":[]}')}`);
      expect(linkHeader(short, { results: 30, pages: 3, page: 2, size: 10 })?.length).to.be.below(MAX_LINK_HEADER);
    });

    it('links first, last, prev and next, keeping every other parameter', () => {
      const url = new URL(`${PERSON}?q=%7B%7D&page=2&results_per_page=5&x=1`);
      expect(linkHeader(url, { results: 15, pages: 3, page: 2, size: 5 })).to.equal(
        [
          `<${PERSON}?q=%7B%7D&x=1&page=1&results_per_page=5>; rel="first"`,
          `<${PERSON}?q=%7B%7D&x=1&page=3&results_per_page=5>; rel="last"`,
          `<${PERSON}?q=%7B%7D&x=1&page=1&results_per_page=5>; rel="prev"`,
          `<${PERSON}?q=%7B%7D&x=1&page=3&results_per_page=5>; rel="next"`,
        ].join(', '),
      );
    });

    it('links first and last only, both page 1, when there is one page or none', () => {
      const expected = `<${PERSON}?page=1&results_per_page=10>; rel="first", <${PERSON}?page=1&results_per_page=10>; rel="last"`;
      expect(linkHeader(new URL(PERSON), { results: 0, pages: 0, page: 1, size: 10 })).to.equal(expected);
      expect(linkHeader(new URL(PERSON), { results: 3, pages: 1, page: 1, size: 10 })).to.equal(expected);
    });

    it('points prev of a page past the end at the last page, with no next', () => {
      expect(linkHeader(new URL(`${PERSON}?page=9`), { results: 12, pages: 2, page: 9, size: 10 })).to.equal(
        `<${PERSON}?page=1&results_per_page=10>; rel="first", <${PERSON}?page=2&results_per_page=10>; rel="last", <${PERSON}?page=2&results_per_page=10>; rel="prev"`,
      );
    });

    it('percent-encodes commas and what a URI does not allow, so the header splits at its own commas', () => {
      const url = new URL(`http://example.com/api/a|b?q={"filters":[{"name":"a","op":"in","val":[1,2]}]}`);
      const header = linkHeader(url, { results: 1, pages: 1, page: 1, size: 10 });
      const q =
        '%7B%22filters%22%3A%5B%7B%22name%22%3A%22a%22%2C%22op%22%3A%22in%22%2C%22val%22%3A%5B1%2C2%5D%7D%5D%7D';
      expect(header).to.equal(
        `<http://example.com/api/a%7Cb?q=${q}&page=1&results_per_page=10>; rel="first", <http://example.com/api/a%7Cb?q=${q}&page=1&results_per_page=10>; rel="last"`,
      );
    });
  });
});

import { expect } from 'chai';
import { pagingLinks } from '../src/index.js';
import { pagingLinksText } from '../src/paging-links.js';

const PERSON = 'http://example.com/api/person';
const page = (number: number, size: number) => ({ offset: (number - 1) * size, limit: size, number, size });

describe('Format A paging links', () => {
  it('links the first, last, previous and next page, keeping every other parameter', () => {
    const url = new URL(`${PERSON}?group=age&page[number]=2&page[size]=10&sort=-age`);
    expect(pagingLinks(url, page(2, 10), 35, 10)).to.deep.equal({
      self: `${PERSON}?group=age&page[number]=2&page[size]=10&sort=-age`,
      first: `${PERSON}?group=age&page[number]=1&page[size]=10&sort=-age`,
      last: `${PERSON}?group=age&page[number]=4&page[size]=10&sort=-age`,
      prev: `${PERSON}?group=age&page[number]=1&page[size]=10&sort=-age`,
      next: `${PERSON}?group=age&page[number]=3&page[size]=10&sort=-age`,
    });
  });

  it('appends the page parameters with the default size of 10 when the request has none', () => {
    expect(pagingLinks(new URL(PERSON), page(1, 10), 25, 10)).to.deep.equal({
      self: PERSON,
      first: `${PERSON}?page[number]=1&page[size]=10`,
      last: `${PERSON}?page[number]=3&page[size]=10`,
      prev: null,
      next: `${PERSON}?page[number]=2&page[size]=10`,
    });
  });

  it('has one page, and neither prev nor next, when nothing matches', () => {
    expect(pagingLinks(new URL(PERSON), page(1, 10), 0, 0)).to.deep.equal({
      self: PERSON,
      first: `${PERSON}?page[number]=1&page[size]=10`,
      last: `${PERSON}?page[number]=1&page[size]=10`,
      prev: null,
      next: null,
    });
  });

  it('has no next on the last page, full or not', () => {
    expect(pagingLinks(new URL(PERSON), page(3, 10), 30, 10).next).to.equal(null);
    expect(pagingLinks(new URL(PERSON), page(3, 10), 25, 5).next).to.equal(null);
  });

  it('points prev of a page past the end at the last page', () => {
    const links = pagingLinks(new URL(`${PERSON}?page[number]=9`), page(9, 10), 35, 0);
    expect(links.prev).to.equal(`${PERSON}?page[number]=4&page[size]=10`);
    expect(links.last).to.equal(`${PERSON}?page[number]=4&page[size]=10`);
    expect(links.next).to.equal(null);
  });

  it('without a total, has no last and a next while the page is full', () => {
    expect(pagingLinks(new URL(PERSON), page(2, 5), undefined, 5)).to.deep.equal({
      self: PERSON,
      first: `${PERSON}?page[number]=1&page[size]=5`,
      last: null,
      prev: `${PERSON}?page[number]=1&page[size]=5`,
      next: `${PERSON}?page[number]=3&page[size]=5`,
    });
    expect(pagingLinks(new URL(PERSON), page(2, 5), undefined, 4).next).to.equal(null);
  });

  it('replaces the first of repeated page parameters in place and drops the others', () => {
    const url = new URL(`${PERSON}?page[number]=2&a=1&page[number]=3&page[size]=5&page[size]=6`);
    expect(pagingLinks(url, page(2, 5), 20, 5).first).to.equal(`${PERSON}?page[number]=1&a=1&page[size]=5`);
  });

  it('recognises page parameters whose brackets are percent-encoded', () => {
    const url = new URL(`${PERSON}?page%5Bnumber%5D=2&page%5Bsize%5D=5`);
    expect(pagingLinks(url, page(2, 5), 20, 5).next).to.equal(`${PERSON}?page[number]=3&page[size]=5`);
  });

  it('writes every link as a valid URI: values percent-encoded, parameter brackets readable', () => {
    const filter = '[{"name":"name","op":"like","val":"a b|c%"}]';
    const url = new URL(`${PERSON}?filter[objects]=${filter}`);
    const links = pagingLinks(url, page(1, 10), 1, 1);
    // The URL parser encodes the quotes and the space; `{`, `|`, `}` and the stray `%` are left to the links.
    expect(links.self).to.equal(
      `${PERSON}?filter[objects]=[%7B%22name%22:%22name%22,%22op%22:%22like%22,%22val%22:%22a%20b%7Cc%25%22%7D]`,
    );
    expect(links.first).to.equal(
      `${PERSON}?filter[objects]=%5B%7B%22name%22%3A%22name%22%2C%22op%22%3A%22like%22%2C%22val%22%3A%22a%20b%7Cc%25%22%7D%5D&page[number]=1&page[size]=10`,
    );
  });

  it('encodes what a URI does not allow in the path, too', () => {
    const links = pagingLinks(new URL('http://example.com/api/a|b'), page(1, 10), 0, 0);
    expect(links.self).to.equal('http://example.com/api/a%7Cb');
    expect(links.first).to.equal('http://example.com/api/a%7Cb?page[number]=1&page[size]=10');
  });

  it('takes the size from the limit when the client paged by neither', () => {
    expect(pagingLinks(new URL(PERSON), { offset: 0, limit: 20 }, 50, 20).last).to.equal(
      `${PERSON}?page[number]=3&page[size]=20`,
    );
  });

  it('writes the links as text exactly as JSON.stringify writes them, whatever the request URL held', () => {
    const cases: [URL, Parameters<typeof pagingLinks>[1], number | undefined, number][] = [
      [new URL(`${PERSON}?group=age&page[number]=2&page[size]=10`), page(2, 10), 35, 10],
      [new URL(PERSON), page(1, 10), 0, 0],
      [new URL(PERSON), { offset: 0, limit: 5 }, undefined, 5],
      [new URL('http://example.com/api/a|b"c\\d?q="x"&r=\\&s=%&t=\u2028é😀&u[%22]=1'), page(2, 10), 40, 10],
    ];
    for (const [url, paging, total, returned] of cases)
      expect(pagingLinksText(url, paging, total, returned)).to.equal(
        JSON.stringify(pagingLinks(url, paging, total, returned)),
      );
  });
});

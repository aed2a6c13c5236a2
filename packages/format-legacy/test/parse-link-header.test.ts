import { expect } from 'chai';
import { parseLinkHeader } from '../src/index.js';

describe('parseLinkHeader', () => {
  it('reads each link as {url, rel, …}', () => {
    expect(parseLinkHeader('<http://a.example/1>; rel="first", <http://a.example/2>; rel="next"; title="Page 2"')).to.deep.equal([
      { url: 'http://a.example/1', rel: 'first' },
      { url: 'http://a.example/2', rel: 'next', title: 'Page 2' },
    ]);
  });

  it('splits only where the next link starts: URLs and values may hold commas', () => {
    expect(parseLinkHeader('<http://a.example/?ids=1,2>; rel="next"; title="a, b",<http://a.example/3>;rel=last')).to.deep.equal([
      { url: 'http://a.example/?ids=1,2', rel: 'next', title: 'a, b' },
      { url: 'http://a.example/3', rel: 'last' },
    ]);
  });

  it('takes parameter names in lower case and unquoted values', () => {
    expect(parseLinkHeader('<x>; REL=next;Type = text/html')).to.deep.equal([{ url: 'x', rel: 'next', type: 'text/html' }]);
  });

  it('skips what is no link', () => {
    expect(parseLinkHeader('')).to.deep.equal([]);
    expect(parseLinkHeader('garbage; rel="x", <y>; rel="z"')).to.deep.equal([{ url: 'y', rel: 'z' }]);
    expect(parseLinkHeader('<y>; flag; rel="z"')).to.deep.equal([{ url: 'y', rel: 'z' }]);
  });
});

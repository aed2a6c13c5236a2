import { expect } from 'chai';
import { jsonTextOf, jsonTextResponse, withHeaders } from '../src/index.js';

const TEXT = '{"data":{"type":"tag","id":"1","attributes":{"name":"a \\"b\\""}}}';
const HEADERS = { 'content-type': 'application/vnd.api+json' };

describe('jsonTextResponse', () => {
  it('offers its text while nothing has read the body', () => {
    const response = jsonTextResponse(200, HEADERS, TEXT);
    expect(jsonTextOf(response)).to.equal(TEXT);
    expect(response.status).to.equal(200);
    expect(response.headers).to.deep.equal(HEADERS);
  });

  it('parses the body when it is read, once, and offers the text no more (the body may be changed in place)', () => {
    const response = jsonTextResponse(200, HEADERS, TEXT);
    const body = response.body as { data: { attributes: { name: string } } };
    expect(body.data.attributes.name).to.equal('a "b"');
    expect(response.body).to.equal(body);
    expect(jsonTextOf(response)).to.equal(undefined);
  });

  it('is copied with its body by a spread, never with its text', () => {
    const response = jsonTextResponse(201, HEADERS, TEXT);
    const copy = { ...response, headers: { ...response.headers, vary: 'Origin' } };
    expect(copy.body).to.deep.equal(JSON.parse(TEXT));
    expect(jsonTextOf(copy)).to.equal(undefined);
    expect(Object.keys(copy)).to.deep.equal(['status', 'headers', 'body']);
  });

  it('keeps its text through withHeaders, and a plain response keeps its body', () => {
    const response = withHeaders(jsonTextResponse(200, HEADERS, TEXT), { 'server-timing': 'db;dur=1' });
    expect(jsonTextOf(response)).to.equal(TEXT);
    expect(response.headers).to.deep.equal({ ...HEADERS, 'server-timing': 'db;dur=1' });
    const plain = withHeaders({ status: 400, headers: {}, body: { errors: [] } }, { vary: 'Origin' });
    expect(plain).to.deep.equal({ status: 400, headers: { vary: 'Origin' }, body: { errors: [] } });
    expect(jsonTextOf(plain)).to.equal(undefined);
  });
});

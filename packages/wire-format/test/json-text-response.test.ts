import { expect } from 'chai';
import {
  documentOf,
  jsonTextOf,
  jsonTextResponse,
  readableResponse,
  sendableResponse,
  withHeaders,
} from '../src/index.js';

const TEXT = '{"data":{"type":"tag","id":"1","attributes":{"name":"a \\"b\\""}}}';
const HEADERS = { 'content-type': 'application/vnd.api+json' };

describe('jsonTextResponse', () => {
  it('is a plain object holding its text, marked as JSON text', () => {
    const response = jsonTextResponse(200, HEADERS, TEXT);
    expect(response).to.deep.equal({ status: 200, headers: HEADERS, body: TEXT, jsonText: true });
    expect(jsonTextOf(response)).to.equal(TEXT);
  });

  it('gives its document parsed by documentOf, and a fresh copy each time', () => {
    const response = jsonTextResponse(200, HEADERS, TEXT);
    const document = documentOf(response) as { data: { attributes: { name: string } } };
    expect(document.data.attributes.name).to.equal('a "b"');
    document.data.attributes.name = 'changed';
    expect(documentOf(response)).to.deep.equal(JSON.parse(TEXT));
  });

  it('is given to a reader as a readable response whose body is parsed on first read, once', () => {
    const readable = readableResponse(jsonTextResponse(201, HEADERS, TEXT));
    expect(readable.status).to.equal(201);
    expect(readable.jsonText).to.equal(undefined);
    const body = readable.body as { data: { attributes: { name: string } } };
    expect(body).to.deep.equal(JSON.parse(TEXT));
    expect(readable.body).to.equal(body);
    body.data.attributes.name = 'changed';
    // Read, so perhaps changed in place: sent as its body, not as the text.
    expect(sendableResponse(readable)).to.equal(readable);
  });

  it('goes back to its text when nobody read it, also through withHeaders', () => {
    const readable = readableResponse(jsonTextResponse(200, HEADERS, TEXT));
    expect(sendableResponse(readable)).to.deep.equal(jsonTextResponse(200, HEADERS, TEXT));
    const more = withHeaders(readable, { vary: 'Origin' });
    expect(sendableResponse(more)).to.deep.equal(jsonTextResponse(200, { ...HEADERS, vary: 'Origin' }, TEXT));
  });

  it('is copied with its body parsed by a spread, never with its text', () => {
    const readable = readableResponse(jsonTextResponse(200, HEADERS, TEXT));
    const copy = { ...readable, headers: { ...readable.headers, vary: 'Origin' } };
    expect(Object.keys(copy)).to.deep.equal(['status', 'headers', 'body']);
    expect(copy.body).to.deep.equal(JSON.parse(TEXT));
    expect(sendableResponse(copy)).to.equal(copy);
  });

  it('leaves an ordinary response as it is', () => {
    const plain = { status: 400, headers: {}, body: { errors: [] } };
    expect(readableResponse(plain)).to.equal(plain);
    expect(sendableResponse(plain)).to.equal(plain);
    expect(documentOf(plain)).to.equal(plain.body);
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

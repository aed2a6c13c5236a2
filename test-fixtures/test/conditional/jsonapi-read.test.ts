import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { expectError, expectStatus, resource } from '../jsonapi-write/helpers.js';
import { checkAnswersAgainstDocument } from '../openapi/document-watch.js';

/** A strong entity-tag: a quoted string, no `W/`. */
const STRONG_TAG = /^"[A-Za-z0-9_-]+"$/;

describeEachDatabase('Format A: conditional reads (ETag, If-None-Match, If-Match on GET)', (t) => {
  checkAnswersAgainstDocument(t);
  beforeEach(() => t().seed());

  const tagOf = async (path: string, headers: Record<string, string> = {}) => {
    const res = expectStatus(await t().http.get(path, { headers }), 200);
    const etag = res.headers.get('etag');
    expect(etag, `${path} has an ETag`).to.match(STRONG_TAG);
    return etag!;
  };

  it('gives every 200 to GET and HEAD a strong ETag that stays while nothing changes', async () => {
    for (const path of [
      '/api/person/1',
      '/api/person',
      '/api/article/1/author',
      '/api/article/1/tags',
      '/api/article/1/relationships/tags',
      '/api/article?include=author,tags',
    ]) {
      const first = await tagOf(path);
      expect(await tagOf(path), path).to.equal(first);
      const head = await fetch(`${t().target.origin}${path}`, {
        method: 'HEAD',
        headers: { accept: 'application/vnd.api+json' },
      });
      expect(head.status, path).to.equal(200);
      // HEAD is never compressed: its tag is the identity coding's, which the compressed GET's marks (-gzip).
      expect(head.headers.get('etag'), `HEAD ${path}`).to.equal(first.replace(/-(gzip|br)"$/, '"'));
    }
  });

  it('changes the ETag when an included resource changes, and with it the row tag of the owner stays', async () => {
    const path = '/api/article/1?include=author';
    const before = expectStatus(await t().http.get(path), 200);
    expectStatus(await t().http.patch('/api/person/1', resource('person', { name: 'Alicia' }, undefined, '1')), 200);
    const after = expectStatus(await t().http.get(path), 200);
    expect(after.headers.get('etag')).to.not.equal(before.headers.get('etag'));
    expect(after.headers.get('resource-etag')).to.equal(before.headers.get('resource-etag'));
  });

  it('changes the ETag of a list when an item enters or leaves it, and with another representation', async () => {
    const list = await tagOf('/api/tag');
    const created = expectStatus(await t().http.post('/api/tag', resource('tag', { name: 'new' })), 201);
    const grown = await tagOf('/api/tag');
    expect(grown).to.not.equal(list);
    expectStatus(await t().http.delete(`/api/tag/${created.body.data.id}`), 204);
    expect(await tagOf('/api/tag')).to.equal(list);
    expect(await tagOf('/api/tag?fields[tag]=name')).to.not.equal(list);
    expect(await tagOf('/api/tag?sort=-name')).to.not.equal(list);
    const jsonp = await fetch(`${t().target.origin}/api/tag?callback=cb`, {
      headers: { accept: 'application/vnd.api+json' },
    });
    expect(jsonp.headers.get('etag')).to.match(STRONG_TAG).and.not.equal(list);
  });

  it('answers If-None-Match that matches (a list, *, a weak tag) with 304, the same ETag and Vary, no body', async () => {
    const path = '/api/article?include=author';
    const ok = expectStatus(await t().http.getRaw(path), 200);
    const etag = ok.headers.get('etag')!;
    for (const condition of [etag, `"other", ${etag}`, '*', `W/${etag}`, `W/"x",W/${etag}`]) {
      const res = await t().http.getRaw(path, { headers: { 'if-none-match': condition } });
      expect(res.status, condition).to.equal(304);
      expect(res.text, condition).to.equal('');
      expect(res.headers.get('etag'), condition).to.equal(etag);
      expect(res.headers.get('vary'), condition).to.equal(ok.headers.get('vary'));
      expect(res.headers.get('content-type'), condition).to.equal(null);
    }
    const head = await fetch(`${t().target.origin}${path}`, {
      method: 'HEAD',
      headers: { accept: 'application/vnd.api+json', 'if-none-match': etag },
    });
    expect(head.status).to.equal(304);
  });

  // A body's tag and Content-Length are taken from its text: both must count UTF-8 bytes, not UTF-16 units,
  // on a page long enough to be compressed as on a short resource.
  it('sends long and short bodies of non-ASCII text whole, measured in bytes, and tags them alike', async () => {
    const name = 'Zoë ✓ 日本語 '.repeat(9);
    for (let i = 0; i < 12; i++) expectStatus(await t().http.post('/api/person', resource('person', { name })), 201);
    const people = expectStatus(await t().http.get('/api/person?fields[person]=name'), 200).body.data;
    for (const p of people) {
      expectStatus(await t().http.patch(`/api/person/${p.id}`, resource('person', { name }, undefined, p.id)), 200);
    }
    for (const [path, long] of [
      ['/api/person?fields[person]=name', true],
      ['/api/person/1?fields[person]=name', false],
    ] as const) {
      const res = expectStatus(await t().http.getRaw(path), 200);
      expect(res.text.length >= 2048, `${path} is long`).to.equal(long);
      expect(Number(res.headers.get('content-length')), path).to.equal(Buffer.byteLength(res.text));
      const names = [res.body.data].flat().map((r: { attributes: { name: string } }) => r.attributes.name);
      expect(names, path).to.deep.equal(long ? people.map(() => name) : [name]);
      const etag = res.headers.get('etag')!;
      expect(etag, path).to.match(STRONG_TAG);
      expect((await t().http.getRaw(path)).headers.get('etag'), path).to.equal(etag);
      expect((await t().http.getRaw(path, { headers: { 'if-none-match': etag } })).status, path).to.equal(304);
      // Asked for gzip, the same text comes back (the page compressed, the short resource as it is).
      const coded = await fetch(`${t().target.origin}${path}`, {
        headers: { accept: 'application/vnd.api+json', 'accept-encoding': 'gzip' },
      });
      expect(await coded.text(), path).to.equal(res.text);
    }
  });

  it('answers 200 when If-None-Match names no current tag, and after a change', async () => {
    const etag = await tagOf('/api/person/2');
    expect((await t().http.get('/api/person/2', { headers: { 'if-none-match': '"nope", W/"nope"' } })).status).to.equal(
      200,
    );
    expectStatus(await t().http.patch('/api/person/2', resource('person', { age: 18 }, undefined, '2')), 200);
    const res = expectStatus(await t().http.get('/api/person/2', { headers: { 'if-none-match': etag } }), 200);
    expect(res.headers.get('etag')).to.not.equal(etag);
    expect(res.body.data.attributes.age).to.equal(18);
  });

  it('leaves a missing resource 404 whatever the preconditions say', async () => {
    const conditions: Record<string, string>[] = [
      { 'if-none-match': '*' },
      { 'if-match': '*' },
      { 'if-none-match': '"x"' },
    ];
    for (const headers of conditions) {
      expectError(await t().http.get('/api/person/999', { headers }), 404);
    }
  });

  it('honours If-Match on a GET with strong comparison, before If-None-Match', async () => {
    const etag = await tagOf('/api/person/1');
    expectStatus(await t().http.get('/api/person/1', { headers: { 'if-match': etag } }), 200);
    expectStatus(await t().http.get('/api/person/1', { headers: { 'if-match': '*' } }), 200);
    expectError(await t().http.get('/api/person/1', { headers: { 'if-match': `W/${etag}` } }), 412, {
      header: 'If-Match',
    });
    // RFC 9110 §13.2.2: a false If-Match decides (412) before a true If-None-Match could answer 304.
    const res = await t().http.get('/api/person/1', { headers: { 'if-match': '"stale"', 'if-none-match': etag } });
    expectError(res, 412, { header: 'If-Match' });
  });

  it('refuses a malformed precondition with 400 naming the header', async () => {
    expectError(await t().http.get('/api/person/1', { headers: { 'if-none-match': 'abc' } }), 400, {
      header: 'If-None-Match',
    });
    expectError(await t().http.get('/api/person/1', { headers: { 'if-match': '"a", b' } }), 400, {
      header: 'If-Match',
    });
  });

  it('gives the single-resource GET the row tag that does not depend on include or fieldsets', async () => {
    const plain = expectStatus(await t().http.get('/api/article/1'), 200);
    const rich = expectStatus(await t().http.get('/api/article/1?include=author,tags&fields[article]=title'), 200);
    expect(plain.headers.get('resource-etag')).to.match(STRONG_TAG);
    expect(rich.headers.get('resource-etag')).to.equal(plain.headers.get('resource-etag'));
    expect(rich.headers.get('etag')).to.not.equal(plain.headers.get('etag'));
    const linkage = expectStatus(await t().http.get('/api/article/1/relationships/tags'), 200);
    expect(linkage.headers.get('resource-etag')).to.equal(plain.headers.get('resource-etag'));
    // A list has no one row: no row tag.
    expect(expectStatus(await t().http.get('/api/article'), 200).headers.get('resource-etag')).to.equal(null);
  });
});

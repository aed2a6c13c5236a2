import { expect } from 'chai';
import { representationTag } from '../src/conditional/representation-tag.js';

describe('representationTag', () => {
  const TYPE = 'application/vnd.api+json';

  // A long body is digested as its UTF-8 bytes, a short one as its text (conditional-read.ts): one body must
  // get one tag either way, or a client's tag would stop matching when its page grows past the threshold.
  it('gives a text and its UTF-8 bytes the same tag, with or without a callback', () => {
    for (const text of ['{}', '{"name":"Zoë ✓ 日本語 🙂"}', `{"data":"${'é'.repeat(5000)}"}`]) {
      expect(representationTag(TYPE, undefined, Buffer.from(text))).to.equal(representationTag(TYPE, undefined, text));
      expect(representationTag(TYPE, 'cb', Buffer.from(text))).to.equal(representationTag(TYPE, 'cb', text));
    }
  });

  it('tells bodies, types and callbacks apart', () => {
    const tags = new Set([
      representationTag(TYPE, undefined, '{"a":1}'),
      representationTag(TYPE, undefined, '{"a":2}'),
      representationTag('application/json', undefined, '{"a":1}'),
      representationTag(TYPE, 'cb', '{"a":1}'),
      representationTag(TYPE, 'cb2', '{"a":1}'),
    ]);
    expect(tags.size).to.equal(5);
    for (const tag of tags) expect(tag).to.match(/^"[A-Za-z0-9_-]{35}"$/);
  });
});

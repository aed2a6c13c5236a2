import { expect } from 'chai';
import { representationTag } from '../src/conditional/representation-tag.js';

describe('representationTag', () => {
  const TYPE = 'application/vnd.api+json';

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

  it('is the same for the same text, whatever it holds, and differs by one character', () => {
    const text = `{"name":"${'Zoë ✓ 日本語 🙂 '.repeat(400)}"}`;
    expect(representationTag(TYPE, undefined, text)).to.equal(representationTag(TYPE, undefined, text));
    expect(representationTag(TYPE, undefined, text.replace('ë', 'e'))).to.not.equal(
      representationTag(TYPE, undefined, text),
    );
  });
});

import { expect } from 'chai';
import { connect, likeToGlob, type Database } from '../src/index.js';

/** [LIKE pattern, GLOB pattern, why] */
const TRANSLATIONS: [string, string, string][] = [
  ['abc', 'abc', 'plain text stays'],
  ['%', '*', '% is any run of characters'],
  ['_', '?', '_ is one character'],
  ['a%b_c', 'a*b?c', 'wildcards in the middle'],
  ['\\%', '%', 'an escaped % is literal'],
  ['\\_', '_', 'an escaped _ is literal'],
  ['\\\\', '\\', 'an escaped backslash is one backslash'],
  ['100\\%%', '100%*', 'a literal % then a wildcard'],
  ['\\a', 'a', 'an escaped ordinary character is itself'],
  ['*', '[*]', "GLOB's * is bracketed"],
  ['?', '[?]', "GLOB's ? is bracketed"],
  ['[', '[[]', "GLOB's [ is bracketed"],
  [']', ']', 'a lone ] needs nothing'],
  ['[a-z]%', '[[]a-z]*', 'a character class of GLOB is literal text in LIKE'],
  ['\\*', '[*]', 'an escaped * is still literal'],
  ['a\\', 'a\\', 'a trailing backslash stays as it is'],
  ['É%', 'É*', 'non-ASCII text'],
  ['', '', 'the empty pattern'],
];

/** [LIKE pattern, value, matches] run through SQLite's GLOB: LIKE semantics, case-sensitive. */
const MATCHES: [string, string, boolean][] = [
  ['abc', 'abc', true],
  ['abc', 'ABC', false],
  ['a%', 'abc', true],
  ['a%', 'Abc', false],
  ['%c', 'abc', true],
  ['a_c', 'abc', true],
  ['a_c', 'ac', false],
  ['a_c', 'abbc', false],
  ['_mile', 'Émile', true],
  ['É%', 'émile', false],
  ['%', '', true],
  ['_', '', false],
  ['50\\%', '50%', true],
  ['50\\%', '500', false],
  ['a\\_b', 'a_b', true],
  ['a\\_b', 'axb', false],
  ['%\\\\%', 'back\\slash', true],
  ['%\\\\%', 'slash', false],
  ['[x]*?', '[x]*?', true],
  ['[x]*?', 'x', false],
  ['a*', 'abc', false],
  ['a?', 'ab', false],
  ['%\n%', 'one\ntwo', true],
];

describe('likeToGlob', () => {
  for (const [like, glob, why] of TRANSLATIONS) {
    it(`${JSON.stringify(like)} → ${JSON.stringify(glob)}: ${why}`, () => {
      expect(likeToGlob(like)).to.equal(glob);
    });
  }

  describe('matches as LIKE would, case-sensitively, in SQLite', () => {
    let db: Database;
    before(() => {
      db = connect('sqlite::memory:');
    });
    after(async () => {
      await db.knex.destroy();
    });

    for (const [like, value, matches] of MATCHES) {
      it(`${JSON.stringify(value)} ${matches ? 'matches' : 'does not match'} ${JSON.stringify(like)}`, async () => {
        const rows = (await db.knex.raw('select ? glob ? as m', [value, likeToGlob(like)])) as { m: number }[];
        expect(rows[0]!.m).to.equal(matches ? 1 : 0);
      });
    }
  });
});

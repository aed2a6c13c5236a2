import { expect } from 'chai';
import { modelName, plural, toOneName, withoutKeySuffix } from '../src/index.js';

describe('naming', () => {
  it('makes plurals of table names', () => {
    const cases = {
      article: 'articles',
      category: 'categories',
      box: 'boxes',
      address: 'addresses',
      books: 'books',
      day: 'days',
      match: 'matches',
      person: 'persons',
    };
    for (const [one, many] of Object.entries(cases)) expect(plural(one)).to.equal(many);
  });

  it('names a to-one after its foreign-key column', () => {
    expect(withoutKeySuffix('author_id')).to.equal('author');
    expect(withoutKeySuffix('authorId')).to.equal('author');
    expect(withoutKeySuffix('author_fk')).to.equal('author');
    expect(withoutKeySuffix('id')).to.equal(undefined);
    expect(toOneName('parent_id', 'category')).to.equal('parent');
    expect(toOneName('home', 'team')).to.equal('home_team');
  });

  it('names a model after its table, as a class', () => {
    expect(modelName('article_tag')).to.equal('ArticleTag');
    expect(modelName('person')).to.equal('Person');
    expect(modelName('_')).to.equal('_');
  });
});

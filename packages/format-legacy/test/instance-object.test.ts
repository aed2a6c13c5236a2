import { expect } from 'chai';
import { fieldValues, instanceObject } from '../src/index.js';
import { node } from './fixtures.js';

describe('Format B instance objects', () => {
  const ann = node('person', '1', { id: 1, name: 'Ann', age: 30, born: '1990-01-02', initial: 'A' });

  it('show every exposed column, the key as stored, and the additional attributes', () => {
    expect(fieldValues(ann)).to.deep.equal({ id: 1, name: 'Ann', age: 30, born: '1990-01-02', initial: 'A' });
  });

  it('show a missing value as null', () => {
    expect(fieldValues(node('person', '2', { id: 2, name: 'Bob' }))).to.deep.equal({
      id: 2,
      name: 'Bob',
      age: null,
      born: null,
      initial: null,
    });
  });

  it('keep 0, false and the empty string, which are values', () => {
    expect(fieldValues(node('person', '0', { id: 0, name: '', age: 0 }))).to.deep.equal({
      id: 0,
      name: '',
      age: 0,
      born: null,
      initial: null,
    });
  });

  it('show foreign keys, numbers as stored', () => {
    expect(
      fieldValues(node('article', '10', { id: 10, title: 'T', author_id: 1, published: '2024-01-02T03:04:05' })),
    ).to.deep.equal({
      id: 10,
      title: 'T',
      author_id: 1,
      published: '2024-01-02T03:04:05',
    });
  });

  it('show only what the collection exposes', () => {
    expect(fieldValues(node('person_names', '1', { id: 1, name: 'Ann', age: 30 }))).to.deep.equal({
      id: 1,
      name: 'Ann',
    });
  });

  it('nest related instances one level deep: to-one an object or null, to-many an array', () => {
    const t10 = node('article', '10', { id: 10, title: 'Ten', author_id: 1 }, {}, { author: ann });
    const withArticles = node(
      'person',
      '1',
      { id: 1, name: 'Ann', age: 30 },
      { articles: ['10'] },
      { articles: [t10] },
    );
    // The nested article shows its own fields only, not its author again.
    expect(instanceObject(withArticles)).to.deep.equal({
      id: 1,
      name: 'Ann',
      age: 30,
      born: null,
      initial: null,
      articles: [{ id: 10, title: 'Ten', author_id: 1, published: null }],
    });
    const orphan = node(
      'article',
      '11',
      { id: 11, title: 'Eleven', author_id: null },
      {},
      { author: null, comments: [], tags: [] },
    );
    expect(instanceObject(orphan)).to.deep.equal({
      id: 11,
      title: 'Eleven',
      author_id: null,
      published: null,
      author: null,
      comments: [],
      tags: [],
    });
  });

  it('is the field values alone where nothing was included', () => {
    expect(instanceObject(ann)).to.deep.equal(fieldValues(ann));
  });
});

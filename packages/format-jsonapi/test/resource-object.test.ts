import { defineModel, Registry } from '@colapi/schema';
import { expect } from 'chai';
import { attributeNames, resourceObject } from '../src/index.js';
import { jsonContent } from '../src/json-text.js';
import { resourceText } from '../src/resource-object.js';
import { BASE, collection, node, registry } from './fixtures.js';

const ALL = { fields: {} };

describe('Format A resource objects', () => {
  describe('attributeNames', () => {
    it('lists the exposed columns but the key, then the additional attributes', () => {
      expect(attributeNames(collection('person'))).to.deep.equal(['name', 'age', 'born', 'initial']);
    });

    it('leaves out belongs-to foreign keys, which are relationships', () => {
      expect(attributeNames(collection('article'))).to.deep.equal(['title', 'published']);
      expect(attributeNames(collection('comment'))).to.deep.equal(['body']);
    });

    it('keeps to what the collection exposes', () => {
      expect(attributeNames(collection('person_names'))).to.deep.equal(['name']);
      expect(attributeNames(collection('tag'))).to.deep.equal(['color']);
    });
  });

  describe('attributes whose names and values JavaScript and JSON treat specially', () => {
    const names = ['say "hi"', 'back\\slash', 'line\u2028break', "'); x('", 'constructor', 'toString', '1', 'émoji 😀'];
    const odd = defineModel({
      name: 'odd',
      table: 'odd',
      columns: [
        { name: 'id', type: 'integer', nullable: false },
        ...names.map((name) => ({ name, type: 'string' as const, nullable: true })),
      ],
    });
    const oddRegistry = new Registry([{ model: odd }]);
    const values: Record<string, unknown> = { id: 1 };
    names.forEach((name, i) => {
      values[name] = i % 2 ? `"quoted" \\ ${name}` : null;
    });
    const oddNode = {
      collection: oddRegistry.collection('odd')!,
      id: '1',
      values,
      linkage: new Map(),
      included: new Map(),
    };

    it('writes every attribute as JSON.stringify would, with and without a fieldset', () => {
      const expected = Object.fromEntries(names.map((n) => [n, values[n]]));
      const text = resourceText(oddNode, BASE, oddRegistry, ALL);
      expect(JSON.parse(text).attributes).to.deep.equal(expected);
      // A fieldset naming every attribute takes the loop: the same text, in the same order.
      expect(text).to.equal(resourceText(oddNode, BASE, oddRegistry, { fields: { odd: [...names] } }));
      const some = names.filter((_, i) => i % 3 === 0);
      const sparse = JSON.parse(resourceText(oddNode, BASE, oddRegistry, { fields: { odd: some } })).attributes;
      expect(sparse).to.deep.equal(Object.fromEntries(some.map((n) => [n, values[n]])));
    });
  });

  describe('resourceObject', () => {
    it('has type, id, attributes, relationships with links and linkage, and links.self', () => {
      const ann = node(
        'person',
        '1',
        { id: 1, name: 'Ann', age: 30, born: '1990-01-02', initial: 'A' },
        { articles: ['10', '11'] },
      );
      expect(resourceObject(ann, BASE, registry, ALL)).to.deep.equal({
        type: 'person',
        id: '1',
        attributes: { name: 'Ann', age: 30, born: '1990-01-02', initial: 'A' },
        relationships: {
          articles: {
            data: [
              { type: 'article', id: '10' },
              { type: 'article', id: '11' },
            ],
            links: {
              self: 'http://example.com/api/person/1/relationships/articles',
              related: 'http://example.com/api/person/1/articles',
            },
          },
        },
        links: { self: 'http://example.com/api/person/1' },
      });
    });

    it('writes to-many linkage ids as JSON.stringify would, plain or not, in their order', () => {
      const odd = ['7', 'say "hi"', 'back\\slash', 'line\u2028break', '\ud800', '😀', ''];
      // A surrogate pair split over two ids is two lone surrogates: each is escaped.
      const split = ['a\ud83d', '\ude00b'];
      for (const ids of [['10', '11', '12'], odd, split, ['1'], []]) {
        const text = resourceText(node('person', '1', { id: 1 }, { articles: ids }), BASE, registry, ALL);
        expect(JSON.parse(text).relationships.articles.data).to.deep.equal(ids.map((id) => ({ type: 'article', id })));
        expect(text).to.include(JSON.stringify(ids.map((id) => ({ type: 'article', id }))));
      }
    });

    it('shows a missing value as null and a relationship without loaded linkage by its links only', () => {
      const bob = node('person', '2', { id: 2, name: 'Bob' });
      expect(resourceObject(bob, BASE, registry, ALL)).to.deep.equal({
        type: 'person',
        id: '2',
        attributes: { name: 'Bob', age: null, born: null, initial: null },
        relationships: {
          articles: {
            links: {
              self: 'http://example.com/api/person/2/relationships/articles',
              related: 'http://example.com/api/person/2/articles',
            },
          },
        },
        links: { self: 'http://example.com/api/person/2' },
      });
    });

    it('keeps 0 and the empty string, which are values', () => {
      const zero = node('person', '0', { id: 0, name: '', age: 0, born: null, initial: '' });
      expect(
        resourceObject(zero, BASE, registry, { fields: { person: ['name', 'age', 'initial'] } }).attributes,
      ).to.deep.equal({ name: '', age: 0, initial: '' });
    });

    it('never shows the key or a foreign key as an attribute; to-one linkage is an identifier or null', () => {
      const a = node(
        'article',
        '10',
        { id: 10, title: 'T', author_id: 1, published: null },
        { author: '1', comments: [], tags: null },
      );
      const object = resourceObject(a, BASE, registry, ALL);
      expect(object.attributes).to.deep.equal({ title: 'T', published: null });
      expect(object.relationships?.author?.data).to.deep.equal({ type: 'person', id: '1' });
      expect(object.relationships?.comments?.data).to.deep.equal([]);
      expect(object.relationships?.tags?.data).to.equal(null);
      expect(Object.keys(object.relationships ?? {})).to.deep.equal(['author', 'comments', 'tags']);
    });

    it('obeys the sparse fieldset of its type', () => {
      const ann = node('person', '1', { id: 1, name: 'Ann', age: 30 }, { articles: ['10'] });
      expect(resourceObject(ann, BASE, registry, { fields: { person: ['age'] } })).to.deep.equal({
        type: 'person',
        id: '1',
        attributes: { age: 30 },
        links: { self: 'http://example.com/api/person/1' },
      });
      expect(resourceObject(ann, BASE, registry, { fields: { person: ['articles'] } })).to.deep.equal({
        type: 'person',
        id: '1',
        relationships: {
          articles: {
            data: [{ type: 'article', id: '10' }],
            links: {
              self: 'http://example.com/api/person/1/relationships/articles',
              related: 'http://example.com/api/person/1/articles',
            },
          },
        },
        links: { self: 'http://example.com/api/person/1' },
      });
      // Another type's fieldset does not apply.
      expect(resourceObject(ann, BASE, registry, { fields: { article: [] } }).attributes).to.deep.equal({
        name: 'Ann',
        age: 30,
        born: null,
        initial: null,
      });
    });

    it('keeps id and type when the fieldset is empty', () => {
      const ann = node('person', '1', { id: 1, name: 'Ann' });
      expect(resourceObject(ann, BASE, registry, { fields: { person: [] } })).to.deep.equal({
        type: 'person',
        id: '1',
        links: { self: 'http://example.com/api/person/1' },
      });
    });

    it('has neither attributes nor relationships where the collection exposes none', () => {
      const go = node('tag', 'go', { name: 'go', color: 'blue' });
      expect(resourceObject(go, BASE, registry, { fields: { tag: [] } })).to.deep.equal({
        type: 'tag',
        id: 'go',
        links: { self: 'http://example.com/api/tag/go' },
      });
      const names = node('person_names', '1', { id: 1, name: 'Ann', age: 30 });
      expect(resourceObject(names, BASE, registry, ALL)).to.deep.equal({
        type: 'person_names',
        id: '1',
        attributes: { name: 'Ann' },
        links: { self: 'http://example.com/api/person_names/1' },
      });
    });

    it('percent-encodes the id in its links', () => {
      const odd = node('tag', 'a/b?c', { name: 'a/b?c', color: null });
      expect(resourceObject(odd, BASE, registry, ALL)).to.deep.equal({
        type: 'tag',
        id: 'a/b?c',
        attributes: { color: null },
        links: { self: 'http://example.com/api/tag/a%2Fb%3Fc' },
      });
    });

    describe('resourceText (the text every document is written from)', () => {
      it('writes its members in the order JSON:API documents show them, then the extra members given', () => {
        const ann = node('person', '1', { id: 1, name: 'Ann', age: 30 }, { articles: ['10'] });
        const text = resourceText(ann, jsonContent(BASE), registry, ALL, ',"meta":{}');
        const parsed = JSON.parse(text) as Record<string, Record<string, unknown>>;
        expect(Object.keys(parsed)).to.deep.equal(['type', 'id', 'attributes', 'relationships', 'links', 'meta']);
        expect(Object.keys(parsed.attributes!)).to.deep.equal(['name', 'age', 'born', 'initial']);
        expect(Object.keys(parsed.relationships!.articles as object)).to.deep.equal(['links', 'data']);
      });

      it('writes awkward values, ids and base URLs as JSON.stringify would', () => {
        const odd = node(
          'person',
          'q"\\\u0001',
          { name: 'line\nbreak "quoted" \u2028 \ud83d\ude00 \udc00', age: -0, born: null, initial: '\u0000' },
          { articles: ['1"', '\\'] },
        );
        const base = 'http://h/a"b\\c';
        const object = JSON.parse(resourceText(odd, jsonContent(base), registry, ALL));
        expect(object.id).to.equal(odd.id);
        expect(object.attributes).to.deep.equal({ ...odd.values, age: 0 });
        expect(object.relationships.articles.data).to.deep.equal([
          { type: 'article', id: '1"' },
          { type: 'article', id: '\\' },
        ]);
        expect(object.links.self).to.equal(`${base}/person/${encodeURIComponent('q"\\\u0001')}`);
      });
    });
  });
});

import { defineModel, narrowRegistry, Registry } from '@colapi/schema';
import { expect } from 'chai';

const author = defineModel({
  name: 'Author',
  table: 'author',
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'name', type: 'string', nullable: false },
    { name: 'secret', type: 'string', nullable: true },
  ],
  relationships: [
    {
      name: 'books',
      cardinality: 'many',
      target: 'Book',
      join: { kind: 'has', ownColumn: 'id', targetColumn: 'author_id' },
    },
  ],
  virtualAttributes: [{ name: 'shout', compute: (row: Record<string, unknown>) => String(row.name).toUpperCase() }],
});
const book = defineModel({
  name: 'Book',
  table: 'book',
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'title', type: 'string', nullable: false },
    { name: 'author_id', type: 'integer', nullable: true },
  ],
  relationships: [
    {
      name: 'author',
      cardinality: 'one',
      target: 'Author',
      join: { kind: 'belongs-to', ownColumn: 'author_id', targetColumn: 'id' },
    },
  ],
});

const full = new Registry([
  {
    model: author,
    options: {
      name: 'authors',
      methods: ['GET', 'PATCH'],
      allow_functions: true,
      additional_attributes: ['shout'],
      total: 'none',
    },
  },
  { model: book, options: { name: 'books', exclude: ['author_id'], allow_client_generated_ids: true } },
]);

describe('narrowRegistry', () => {
  it('rebuilds every collection as it was when every field is shown', () => {
    const same = narrowRegistry(
      full,
      (c) => new Set([...c.columns.keys(), ...c.relationships.keys(), ...c.virtualAttributes.keys()]),
    );
    for (const [name, c] of full.collections) {
      const n = same.collection(name)!;
      expect(n.model).to.equal(c.model);
      expect({
        ...n,
        columns: [...n.columns.keys()],
        relationships: [...n.relationships.keys()],
        virtualAttributes: [...n.virtualAttributes.keys()],
        methods: [...n.methods],
      }).to.deep.equal({
        ...c,
        columns: [...c.columns.keys()],
        relationships: [...c.relationships.keys()],
        virtualAttributes: [...c.virtualAttributes.keys()],
        methods: [...c.methods],
      });
    }
  });

  it('leaves out what is not shown, the key always kept', () => {
    const narrow = narrowRegistry(full, (c) =>
      c.name === 'authors' ? new Set(['name']) : new Set(['title', 'author']),
    );
    expect([...narrow.collection('authors')!.columns.keys()]).to.deep.equal(['id', 'name']);
    expect([...narrow.collection('authors')!.relationships.keys()]).to.deep.equal([]);
    expect([...narrow.collection('authors')!.virtualAttributes.keys()]).to.deep.equal([]);
    expect([...narrow.collection('books')!.relationships.keys()]).to.deep.equal(['author']);
  });

  it('drops a collection answered undefined; a relationship must then be hidden too', () => {
    const narrow = narrowRegistry(full, (c) => (c.name === 'books' ? new Set(['title']) : undefined));
    expect([...narrow.collections.keys()]).to.deep.equal(['books']);
    expect(() => narrowRegistry(full, (c) => (c.name === 'books' ? new Set(['author']) : undefined))).to.throw(
      /no collection/,
    );
  });
});

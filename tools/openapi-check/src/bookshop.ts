import { defineModel, Registry, type CollectionOptions } from '@colapi/schema';

const id = { name: 'id', type: 'integer', nullable: false, generated: true } as const;

/** A small registry with every relationship kind and every registration option, for the tests. */
export function bookshop(
  options: Partial<Record<'authors' | 'books' | 'tags' | 'titles', CollectionOptions>> = {},
): Registry {
  const author = defineModel({
    name: 'Author',
    table: 'author',
    columns: [id, { name: 'name', type: 'string', nullable: false }, { name: 'born', type: 'date', nullable: true }],
    relationships: [
      {
        name: 'books',
        cardinality: 'many',
        target: 'Book',
        join: { kind: 'has', ownColumn: 'id', targetColumn: 'author_id' },
      },
    ],
    virtualAttributes: [{ name: 'initial', compute: (row) => String(row.name ?? '').slice(0, 1) }],
  });
  const book = defineModel({
    name: 'Book',
    table: 'book',
    columns: [
      id,
      { name: 'title', type: 'string', nullable: false },
      { name: 'price', type: 'number', nullable: true },
      { name: 'added_at', type: 'datetime', nullable: true },
      { name: 'author_id', type: 'integer', nullable: true },
    ],
    relationships: [
      {
        name: 'author',
        cardinality: 'one',
        target: 'Author',
        join: { kind: 'belongs-to', ownColumn: 'author_id', targetColumn: 'id' },
      },
      {
        name: 'tags',
        cardinality: 'many',
        target: 'Tag',
        join: {
          kind: 'through',
          ownColumn: 'id',
          targetColumn: 'id',
          through: { table: 'book_tag', ownColumn: 'book_id', targetColumn: 'tag_id' },
        },
      },
    ],
  });
  const tag = defineModel({
    name: 'Tag',
    table: 'tag',
    columns: [id, { name: 'name', type: 'string', nullable: false }],
  });
  return new Registry([
    {
      model: author,
      options: { name: 'authors', additional_attributes: ['initial'], allow_functions: true, ...options.authors },
    },
    { model: book, options: { name: 'books', allow_functions: true, ...options.books } },
    {
      model: tag,
      options: { name: 'tags', methods: ['GET', 'POST'], allow_client_generated_ids: true, ...options.tags },
    },
    { model: book, options: { name: 'titles', methods: ['GET'], only: ['title'], ...options.titles } },
  ]);
}

import { Model } from 'objection';

/**
 * The bookshop, as an application would write it with Objection. colapi reads `tableName`, `jsonSchema`,
 * `relationMappings` and `virtualAttributes`; nothing here is colapi-specific.
 */

const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });

export class Publisher extends Model {
  static override tableName = 'publishers';
  static override jsonSchema = {
    type: 'object',
    required: ['name'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string', maxLength: 100 },
      city: nullable('string', { maxLength: 100 }),
      founded: nullable('integer'),
    },
  };

  static override get relationMappings() {
    return {
      books: {
        relation: Model.HasManyRelation,
        modelClass: Book,
        join: { from: 'publishers.id', to: 'books.publisher_id' },
      },
    };
  }
}

export class Author extends Model {
  static override tableName = 'authors';
  static override virtualAttributes = ['full_name'];
  static override jsonSchema = {
    type: 'object',
    required: ['last_name'],
    properties: {
      id: { type: 'integer' },
      first_name: nullable('string', { maxLength: 100 }),
      last_name: { type: 'string', maxLength: 100 },
      born: nullable('string', { format: 'date' }),
      country: nullable('string', { maxLength: 100 }),
    },
  };
  declare first_name: string | null;
  declare last_name: string;

  /** Computed from the row on every read; shown because the collection lists it in additional_attributes. */
  get full_name(): string {
    return [this.first_name, this.last_name].filter(Boolean).join(' ');
  }

  static override get relationMappings() {
    return {
      books: { relation: Model.HasManyRelation, modelClass: Book, join: { from: 'authors.id', to: 'books.author_id' } },
    };
  }
}

export class Book extends Model {
  static override tableName = 'books';
  static override jsonSchema = {
    type: 'object',
    required: ['title'],
    properties: {
      id: { type: 'integer' },
      title: { type: 'string', maxLength: 200 },
      isbn: nullable('string', { maxLength: 20 }),
      published_on: nullable('string', { format: 'date' }),
      pages: nullable('integer'),
      price: nullable('number'),
      in_print: nullable('boolean'),
      author_id: nullable('integer'),
      publisher_id: nullable('integer'),
    },
  };

  static override get relationMappings() {
    return {
      author: {
        relation: Model.BelongsToOneRelation,
        modelClass: Author,
        join: { from: 'books.author_id', to: 'authors.id' },
      },
      publisher: {
        relation: Model.BelongsToOneRelation,
        modelClass: Publisher,
        join: { from: 'books.publisher_id', to: 'publishers.id' },
      },
      reviews: {
        relation: Model.HasManyRelation,
        modelClass: Review,
        join: { from: 'books.id', to: 'reviews.book_id' },
      },
      tags: {
        relation: Model.ManyToManyRelation,
        modelClass: Tag,
        join: { from: 'books.id', through: { from: 'book_tags.book_id', to: 'book_tags.tag_id' }, to: 'tags.id' },
      },
    };
  }
}

export class Review extends Model {
  static override tableName = 'reviews';
  static override jsonSchema = {
    type: 'object',
    required: ['rating'],
    properties: {
      id: { type: 'integer' },
      book_id: nullable('integer'),
      reviewer: nullable('string', { maxLength: 100 }),
      rating: { type: 'integer', minimum: 1, maximum: 5 },
      body: nullable('string'),
      created_at: nullable('string', { format: 'date-time' }),
    },
  };

  static override get relationMappings() {
    return {
      book: {
        relation: Model.BelongsToOneRelation,
        modelClass: Book,
        join: { from: 'reviews.book_id', to: 'books.id' },
      },
    };
  }
}

export class Tag extends Model {
  static override tableName = 'tags';
  static override jsonSchema = {
    type: 'object',
    required: ['name'],
    properties: { id: { type: 'integer' }, name: { type: 'string', maxLength: 50 } },
  };

  static override get relationMappings() {
    return {
      books: {
        relation: Model.ManyToManyRelation,
        modelClass: Book,
        join: { from: 'tags.id', through: { from: 'book_tags.tag_id', to: 'book_tags.book_id' }, to: 'books.id' },
      },
    };
  }
}

/** In foreign-key order: a table comes after the tables it refers to. */
export const MODELS = [Publisher, Author, Book, Review, Tag] as const;

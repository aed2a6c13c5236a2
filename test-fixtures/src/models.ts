import { Model } from 'objection';

/** The models of the conformance target (conformance/SCHEMA.md), as a user would write them. */
export class Person extends Model {
  static override tableName = 'person';
  static override virtualAttributes = ['is_minor'];
  static override jsonSchema = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      name: { type: ['string', 'null'], maxLength: 100 },
      age: { type: ['integer', 'null'] },
      other: { type: ['number', 'null'] },
      birthday: { type: ['string', 'null'], format: 'date' },
      birth_datetime: { type: ['string', 'null'], format: 'date-time' },
      bedtime: { type: ['string', 'null'], format: 'time' },
    },
  };
  declare age: number | null;

  get is_minor(): boolean {
    return this.age !== null && this.age !== undefined && this.age <= 18;
  }

  static override get relationMappings() {
    return {
      articles: {
        relation: Model.HasManyRelation,
        modelClass: Article,
        join: { from: 'person.id', to: 'article.author_id' },
      },
      comments: {
        relation: Model.HasManyRelation,
        modelClass: Comment,
        join: { from: 'person.id', to: 'comment.author_id' },
      },
    };
  }
}

export class Article extends Model {
  static override tableName = 'article';
  static override jsonSchema = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      title: { type: ['string', 'null'], maxLength: 200 },
      publishtime: { type: ['string', 'null'], format: 'date-time' },
      author_id: { type: ['integer', 'null'] },
    },
  };

  static override get relationMappings() {
    return {
      author: {
        relation: Model.BelongsToOneRelation,
        modelClass: Person,
        join: { from: 'article.author_id', to: 'person.id' },
      },
      comments: {
        relation: Model.HasManyRelation,
        modelClass: Comment,
        join: { from: 'article.id', to: 'comment.article_id' },
      },
      tags: {
        relation: Model.ManyToManyRelation,
        modelClass: Tag,
        join: {
          from: 'article.id',
          through: { from: 'article_tag.article_id', to: 'article_tag.tag_id' },
          to: 'tag.id',
        },
      },
    };
  }
}

export class Comment extends Model {
  static override tableName = 'comment';
  static override jsonSchema = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      content: { type: ['string', 'null'] },
      article_id: { type: ['integer', 'null'] },
      author_id: { type: ['integer', 'null'] },
    },
  };

  static override get relationMappings() {
    return {
      article: {
        relation: Model.BelongsToOneRelation,
        modelClass: Article,
        join: { from: 'comment.article_id', to: 'article.id' },
      },
      author: {
        relation: Model.BelongsToOneRelation,
        modelClass: Person,
        join: { from: 'comment.author_id', to: 'person.id' },
      },
    };
  }
}

export class Tag extends Model {
  static override tableName = 'tag';
  static override jsonSchema = {
    type: 'object',
    required: ['name'],
    properties: { id: { type: 'integer' }, name: { type: 'string', maxLength: 100 } },
  };

  static override get relationMappings() {
    return {
      articles: {
        relation: Model.ManyToManyRelation,
        modelClass: Article,
        join: {
          from: 'tag.id',
          through: { from: 'article_tag.tag_id', to: 'article_tag.article_id' },
          to: 'article.id',
        },
      },
    };
  }
}

export class Network extends Model {
  static override tableName = 'network';
  static override jsonSchema = {
    type: 'object',
    properties: { id: { type: 'integer' }, address: { type: ['string', 'null'], format: 'ipv4' } },
  };
}

export class Task extends Model {
  static override tableName = 'task';
  static override jsonSchema = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      title: { type: ['string', 'null'], maxLength: 100 },
      duration: { type: ['integer', 'null'] },
      due: { type: ['string', 'null'], format: 'date' },
    },
  };
}

export const MODELS = [Person, Article, Comment, Tag, Network, Task] as const;

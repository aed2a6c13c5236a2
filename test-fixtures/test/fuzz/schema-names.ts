import { ALL_OPERATOR_SPELLINGS } from '@colapi/query-ast';

/** The names of the conformance target (conformance/SCHEMA.md): what a fuzzer must combine to get deep. */
export const COLLECTIONS = [
  'person',
  'article',
  'comment',
  'tag',
  'network',
  'task',
  'person_names',
  'person_private',
] as const;
export const WRITABLE = ['person', 'article', 'tag', 'task', 'person_private'] as const;
export const COLUMNS = [
  'id',
  'name',
  'age',
  'other',
  'birthday',
  'birth_datetime',
  'bedtime',
  'title',
  'publishtime',
  'author_id',
  'content',
  'article_id',
  'address',
  'duration',
  'due',
  'is_minor',
] as const;
export const RELATIONS = ['articles', 'comments', 'author', 'tags', 'article'] as const;
export const OPERATORS = [...ALL_OPERATOR_SPELLINGS];
export const FUNCTIONS = ['avg', 'sum', 'count', 'min', 'max', 'AVG', 'Count'] as const;
/** Ids that exist in the standard dataset, and some that cannot. */
export const IDS = [
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '0',
  '-1',
  '01',
  '1.0',
  '99999',
  '2147483648',
  '9007199254740993',
] as const;
export const FIELD_PATHS = (separator: string) =>
  ['author', 'article', `article${separator}author`, 'comments', 'tags', 'articles'].flatMap((p) =>
    ['name', 'title', 'id', 'age', 'content'].map((c) => `${p}${separator}${c}`),
  );

export type Kind = 'int' | 'num' | 'text' | 'date' | 'datetime' | 'time' | 'interval' | 'inet';

interface Shape {
  readonly columns: Readonly<Record<string, Kind>>;
  readonly relations: readonly string[];
  /** Field paths through to-one relationships, with `.` between steps. */
  readonly paths: readonly string[];
}

const PERSON: Shape = {
  columns: {
    id: 'int',
    name: 'text',
    age: 'int',
    other: 'num',
    birthday: 'date',
    birth_datetime: 'datetime',
    bedtime: 'time',
  },
  relations: ['articles', 'comments'],
  paths: [],
};

/** Each collection's own names, so that most generated requests are valid enough to reach the database. */
export const SHAPES: Readonly<Record<string, Shape>> = {
  person: PERSON,
  person_names: { columns: { id: 'int', name: 'text' }, relations: [], paths: [] },
  person_private: {
    columns: { id: 'int', name: 'text', birthday: 'date', birth_datetime: 'datetime', bedtime: 'time' },
    relations: ['articles'],
    paths: [],
  },
  article: {
    columns: { id: 'int', title: 'text', publishtime: 'datetime', author_id: 'int' },
    relations: ['author', 'comments', 'tags'],
    paths: ['author.name', 'author.age', 'author.birthday'],
  },
  comment: {
    columns: { id: 'int', content: 'text', article_id: 'int', author_id: 'int' },
    relations: ['article', 'author'],
    paths: ['article.title', 'author.name', 'article.author.name', 'article.publishtime'],
  },
  tag: { columns: { id: 'int', name: 'text' }, relations: ['articles'], paths: [] },
  network: { columns: { id: 'int', address: 'inet' }, relations: [], paths: [] },
  task: { columns: { id: 'int', title: 'text', duration: 'interval', due: 'date' }, relations: [], paths: [] },
};

export const shapeOf = (collection: string): Shape =>
  Object.hasOwn(SHAPES, collection) ? SHAPES[collection]! : PERSON;

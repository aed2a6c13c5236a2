import type { Dialect } from '@colapi/sql-compiler';
import type { Knex } from 'knex';

/** Creates the conformance tables that are missing; never drops or empties one. */
export async function createTables(knex: Knex, dialect: Dialect): Promise<void> {
  const t = (type: Parameters<Dialect['ddlType']>[0]) => dialect.ddlType(type);
  let creating = '';
  const fk = (table: Knex.CreateTableBuilder, column: string, target: string, nullable = true) => {
    const c = table.integer(column).unsigned();
    if (!nullable) c.notNullable();
    table.foreign(column).references('id').inTable(target);
    // Every relationship read looks rows up by their foreign key: without an index each is a full scan.
    table.index([column], indexName(creating, column));
  };
  const tables: [string, (table: Knex.CreateTableBuilder) => void][] = [
    [
      'person',
      (table) => {
        table.increments('id');
        table.string('name', 100);
        table.integer('age');
        table.specificType('other', t('number'));
        table.specificType('birthday', t('date'));
        table.specificType('birth_datetime', t('datetime'));
        table.specificType('bedtime', t('time'));
      },
    ],
    [
      'article',
      (table) => {
        table.increments('id');
        table.string('title', 200);
        table.specificType('publishtime', t('datetime'));
        fk(table, 'author_id', 'person');
      },
    ],
    [
      'comment',
      (table) => {
        table.increments('id');
        table.text('content');
        fk(table, 'article_id', 'article');
        fk(table, 'author_id', 'person');
      },
    ],
    [
      'tag',
      (table) => {
        table.increments('id');
        table.string('name', 100).notNullable().unique();
      },
    ],
    [
      'article_tag',
      (table) => {
        fk(table, 'article_id', 'article', false);
        fk(table, 'tag_id', 'tag', false);
        table.primary(['article_id', 'tag_id']);
      },
    ],
    [
      'network',
      (table) => {
        table.increments('id');
        table.specificType('address', t('inet'));
      },
    ],
    [
      'task',
      (table) => {
        table.increments('id');
        table.string('title', 100);
        table.specificType('duration', t('interval'));
        table.specificType('due', t('date'));
      },
    ],
  ];
  for (const [name, build] of tables) {
    creating = name;
    if (!(await knex.schema.hasTable(name))) await knex.schema.createTable(name, build);
  }
  await ensureForeignKeyIndexes(knex, dialect);
}

/** The name knex gives an index of one column, so that both ways of creating it agree. */
function indexName(table: string, column: string): string {
  return `${table}_${column}_index`;
}

const FOREIGN_KEYS: readonly [string, string][] = [
  ['article', 'author_id'],
  ['comment', 'article_id'],
  ['comment', 'author_id'],
  ['article_tag', 'article_id'],
  ['article_tag', 'tag_id'],
];

/**
 * Tables made before the foreign keys had indexes get them now. MySQL (InnoDB) has always indexed foreign
 * keys by itself, and has no `if not exists` for indexes, so only the other dialects need this.
 */
async function ensureForeignKeyIndexes(knex: Knex, dialect: Dialect): Promise<void> {
  if (dialect.name === 'mysql') return;
  for (const [table, column] of FOREIGN_KEYS) {
    await knex.raw('create index if not exists ?? on ?? (??)', [indexName(table, column), table, column]);
  }
}

export const TABLES = ['article_tag', 'comment', 'article', 'person', 'tag', 'network', 'task'] as const;

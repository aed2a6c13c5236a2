import type { Knex } from 'knex';
import type { DatabaseKind } from './databases.js';

/**
 * A small library made with SQL DDL only, no models, for the catalogue tests: a self-reference
 * (category.parent_id), two foreign keys to one table (book.author_id, book.editor_id), a join table
 * (book_tag), a unique foreign key (profile.author_id), a composite primary key (edition), a view
 * (book_summary), a computed column (author.name_length) and columns of types colapi lacks (author.photo,
 * and on PostgreSQL author.nicknames, an array).
 */
const DDL: Record<DatabaseKind, readonly string[]> = {
  postgres: [
    `create table author (id serial primary key, name varchar(80) not null, email varchar(120) unique, born date,
      active boolean not null default true, photo bytea, nicknames text[],
      name_length integer generated always as (length(name)) stored)`,
    'create table category (id serial primary key, name varchar(50) not null, parent_id integer, foreign key (parent_id) references category (id))',
    `create table book (id serial primary key, title varchar(200) not null, author_id integer not null, editor_id integer,
      category_id integer, published_on date, price numeric(8, 2), pages integer, added_at timestamp not null default current_timestamp,
      foreign key (author_id) references author (id), foreign key (editor_id) references author (id), foreign key (category_id) references category (id))`,
    'create table tag (id serial primary key, name varchar(40) not null unique)',
    `create table book_tag (book_id integer not null, tag_id integer not null, primary key (book_id, tag_id),
      foreign key (book_id) references book (id), foreign key (tag_id) references tag (id))`,
    'create table profile (id serial primary key, author_id integer not null unique, bio text, foreign key (author_id) references author (id))',
    'create table edition (book_id integer not null, number integer not null, year integer, primary key (book_id, number), foreign key (book_id) references book (id))',
  ],
  mysql: [
    `create table author (id integer auto_increment primary key, name varchar(80) not null, email varchar(120) unique, born date,
      active boolean not null default true, photo blob, name_length integer as (char_length(name)) stored)`,
    'create table category (id integer auto_increment primary key, name varchar(50) not null, parent_id integer, foreign key (parent_id) references category (id))',
    `create table book (id integer auto_increment primary key, title varchar(200) not null, author_id integer not null, editor_id integer,
      category_id integer, published_on date, price decimal(8, 2), pages integer, added_at datetime(6) not null default current_timestamp(6),
      foreign key (author_id) references author (id), foreign key (editor_id) references author (id), foreign key (category_id) references category (id))`,
    'create table tag (id integer auto_increment primary key, name varchar(40) not null unique)',
    `create table book_tag (book_id integer not null, tag_id integer not null, primary key (book_id, tag_id),
      foreign key (book_id) references book (id), foreign key (tag_id) references tag (id))`,
    'create table profile (id integer auto_increment primary key, author_id integer not null unique, bio text, foreign key (author_id) references author (id))',
    'create table edition (book_id integer not null, number integer not null, year integer, primary key (book_id, number), foreign key (book_id) references book (id))',
  ],
  sqlite: [
    `create table author (id integer primary key, name varchar(80) not null, email varchar(120) unique, born date,
      active boolean not null default 1, photo blob, name_length integer generated always as (length(name)) stored)`,
    'create table category (id integer primary key, name varchar(50) not null, parent_id integer, foreign key (parent_id) references category (id))',
    `create table book (id integer primary key, title varchar(200) not null, author_id integer not null, editor_id integer,
      category_id integer, published_on date, price numeric(8, 2), pages integer, added_at datetime not null default current_timestamp,
      foreign key (author_id) references author (id), foreign key (editor_id) references author (id), foreign key (category_id) references category (id))`,
    'create table tag (id integer primary key, name varchar(40) not null unique)',
    `create table book_tag (book_id integer not null, tag_id integer not null, primary key (book_id, tag_id),
      foreign key (book_id) references book (id), foreign key (tag_id) references tag (id))`,
    'create table profile (id integer primary key, author_id integer not null unique, bio text, foreign key (author_id) references author (id))',
    'create table edition (book_id integer not null, number integer not null, year integer, primary key (book_id, number), foreign key (book_id) references book (id))',
  ],
};

/** Also DDL: the same on every database. */
const VIEW =
  'create view book_summary as select b.id, b.title, b.pages, a.name as author_name from book b join author a on a.id = b.author_id';

/** Rows in plain SQL; ids are numbered by the database from 1, in this order. */
const ROWS: readonly string[] = [
  "insert into author (name, email, born, active) values ('Ada Lovelace', 'ada@example.com', '1815-12-10', true)",
  "insert into author (name, email, born, active) values ('Charles Babbage', 'charles@example.com', '1791-12-26', false)",
  "insert into author (name, email, born, active) values ('Grace Hopper', null, '1906-12-09', true)",
  "insert into category (name, parent_id) values ('Science', null)",
  "insert into category (name, parent_id) values ('Computing', 1)",
  "insert into category (name, parent_id) values ('Mathematics', 1)",
  "insert into book (title, author_id, editor_id, category_id, published_on, price, pages) values ('Notes on the Engine', 1, 2, 2, '1843-09-01', 12.5, 66)",
  "insert into book (title, author_id, editor_id, category_id, published_on, price, pages) values ('Passages from the Life', 2, null, 1, '1864-01-01', 30, 496)",
  "insert into book (title, author_id, editor_id, category_id, published_on, price, pages) values ('Compiling Routines', 3, 1, 2, '1952-05-01', 8.25, 120)",
  "insert into book (title, author_id, editor_id, category_id, published_on, price, pages) values ('On the Economy of Machinery', 2, 2, null, '1832-06-01', null, 408)",
  "insert into tag (name) values ('classic')",
  "insert into tag (name) values ('programming')",
  "insert into tag (name) values ('history')",
  'insert into book_tag (book_id, tag_id) values (1, 1)',
  'insert into book_tag (book_id, tag_id) values (1, 2)',
  'insert into book_tag (book_id, tag_id) values (3, 2)',
  'insert into book_tag (book_id, tag_id) values (4, 3)',
  "insert into profile (author_id, bio) values (1, 'Wrote the first program.')",
  'insert into edition (book_id, number, year) values (1, 1, 1843)',
];

/** Creates the library's tables and view on an empty database, and fills them. */
export async function createLibrary(knex: Knex, kind: DatabaseKind): Promise<void> {
  const ddl = DDL[kind];
  if (!ddl) throw new Error(`the library schema has no DDL for ${kind}`);
  for (const statement of [...ddl, VIEW, ...ROWS]) await knex.raw(statement);
}

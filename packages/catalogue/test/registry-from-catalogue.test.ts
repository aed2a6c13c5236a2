import type { ColumnType } from '@colapi/schema';
import { expect } from 'chai';
import {
  CatalogueConfigError,
  registryFromCatalogue,
  type Catalogue,
  type CatalogueColumn,
  type CatalogueConfig,
  type CatalogueTable,
} from '../src/index.js';

/** A column: `name:type`, with `!` for not null, `+` for auto-increment, `=` for a default. */
function col(spec: string): CatalogueColumn {
  const m = /^(\w+):(\w*)([!+=]*)$/.exec(spec)!;
  const flags = m[3]!;
  return {
    name: m[1]!,
    sqlType: m[2] || 'blob',
    type: (m[2] || undefined) as ColumnType | undefined,
    nullable: !flags.includes('!') && !flags.includes('+'),
    autoIncrement: flags.includes('+'),
    computed: false,
    hasDefault: flags.includes('='),
  };
}

function table(name: string, columns: string[], rest: Partial<CatalogueTable> = {}): CatalogueTable {
  return { name, kind: 'table', columns: columns.map(col), primaryKey: ['id'], uniques: [], foreignKeys: [], ...rest };
}

const fk = (column: string, target: string, reference = 'id') => ({
  columns: [column],
  table: target,
  references: [reference],
});

const catalogue = (...tables: CatalogueTable[]): Catalogue => ({ dialect: 'postgres', schema: 'public', tables });

const relationships = (c: Catalogue, collection: string, config?: CatalogueConfig) =>
  [...registryFromCatalogue(c, config).registry.collection(collection)!.relationships.values()].map(
    (r) => `${r.name}:${r.cardinality}`,
  );

function configError(c: Catalogue, config: CatalogueConfig): string {
  try {
    registryFromCatalogue(c, config);
  } catch (error) {
    expect(error).to.be.instanceOf(CatalogueConfigError);
    return (error as Error).message;
  }
  throw new Error('no error');
}

const person = table('person', ['id:integer+', 'name:string!']);

describe('registryFromCatalogue', () => {
  describe('names', () => {
    it('qualifies the inverses of two foreign keys to one table by their to-one names', () => {
      const message = table('message', ['id:integer+', 'sender_id:integer!', 'recipient_id:integer'], {
        foreignKeys: [fk('sender_id', 'person'), fk('recipient_id', 'person')],
      });
      const c = catalogue(message, person);
      expect(relationships(c, 'message')).to.deep.equal(['sender:one', 'recipient:one']);
      expect(relationships(c, 'person')).to.deep.equal(['messages_by_sender:many', 'messages_by_recipient:many']);
    });

    it('names a to-one after a column without a key suffix and the table it refers to', () => {
      const team = table('team', ['id:integer+']);
      const match = table('match', ['id:integer+', 'home:integer', 'away:integer'], {
        foreignKeys: [fk('home', 'team'), fk('away', 'team')],
      });
      const c = catalogue(match, team);
      expect(relationships(c, 'match')).to.deep.equal(['home_team:one', 'away_team:one']);
      expect(relationships(c, 'team')).to.deep.equal(['matches_by_home_team:many', 'matches_by_away_team:many']);
    });

    it('names the inverse of a unique foreign key in the singular, to-one', () => {
      const profile = table('profile', ['id:integer+', 'person_id:integer!'], {
        uniques: [['person_id']],
        foreignKeys: [fk('person_id', 'person')],
      });
      expect(relationships(catalogue(person, profile), 'person')).to.deep.equal(['profile:one']);
    });

    it('names both ends of a join table after the other table, and of a self-join after the other column', () => {
      const tag = table('tag', ['id:integer+']);
      const join = table('person_tag', ['person_id:integer!', 'tag_id:integer!'], {
        primaryKey: ['person_id', 'tag_id'],
        foreignKeys: [fk('person_id', 'person'), fk('tag_id', 'tag')],
      });
      const follow = table('follow', ['follower_id:integer!', 'followee_id:integer!'], {
        primaryKey: ['follower_id', 'followee_id'],
        foreignKeys: [fk('follower_id', 'person'), fk('followee_id', 'person')],
      });
      const c = catalogue(follow, person, join, tag);
      expect(relationships(c, 'person')).to.deep.equal(['followees:many', 'followers:many', 'tags:many']);
      expect(relationships(c, 'tag')).to.deep.equal(['persons:many']);
      const followees = registryFromCatalogue(c).registry.collection('person')!.relationships.get('followees')!;
      expect(followees.join).to.deep.equal({
        kind: 'through',
        ownColumn: 'id',
        targetColumn: 'id',
        through: { table: 'follow', ownColumn: 'follower_id', targetColumn: 'followee_id' },
      });
      expect([...registryFromCatalogue(c).registry.collections.keys()]).to.deep.equal(['person', 'tag']);
    });

    it('qualifies two join tables between the same tables by the join table', () => {
      const tag = table('tag', ['id:integer+']);
      const a = table('person_tag', ['person_id:integer!', 'tag_id:integer!'], {
        primaryKey: ['person_id', 'tag_id'],
        foreignKeys: [fk('person_id', 'person'), fk('tag_id', 'tag')],
      });
      const b = table('muted_tag', ['person_id:integer!', 'tag_id:integer!'], {
        primaryKey: ['person_id', 'tag_id'],
        foreignKeys: [fk('person_id', 'person'), fk('tag_id', 'tag')],
      });
      expect(relationships(catalogue(b, person, a, tag), 'person')).to.deep.equal([
        'tags_via_muted_tag:many',
        'tags_via_person_tag:many',
      ]);
    });

    it('numbers a name that a column already holds, and says so', () => {
      const article = table('article', ['id:integer+', 'author:string', 'author_id:integer'], {
        foreignKeys: [fk('author_id', 'person')],
      });
      const { registry, warnings } = registryFromCatalogue(catalogue(article, person));
      expect([...registry.collection('article')!.relationships.keys()]).to.deep.equal(['author_2']);
      expect(warnings).to.deep.equal([
        'article: relationship "author" is named "author_2": "author" is taken (rename it in tables.article.relationships)',
      ]);
    });

    it('names models in PascalCase, falling back to the table name on a clash', () => {
      const a = table('order_line', ['id:integer+']);
      const b = table('OrderLine', ['id:integer+']);
      const { models } = registryFromCatalogue(catalogue(b, a));
      expect([...models.values()].map((m) => m.name)).to.deep.equal(['OrderLine', 'order_line']);
    });
  });

  describe('keys and left-out parts', () => {
    it('serves a table by a unique not-null column when it has no primary key, and leaves out one with neither', () => {
      const coded = table('country', ['code:string!', 'name:string'], { primaryKey: [], uniques: [['code']] });
      const loose = table('log', ['at:datetime', 'line:string'], { primaryKey: [] });
      const { registry, warnings } = registryFromCatalogue(catalogue(coded, loose));
      expect(registry.collection('country')!.model.key).to.equal('code');
      // A key the database does not number is the client's to choose.
      expect(registry.collection('country')!.allowClientGeneratedIds).to.equal(true);
      expect(registry.collection('log')).to.equal(undefined);
      expect(warnings).to.deep.equal([
        'log: no primary key nor unique not-null column: left out (name a unique column as tables.log.key to serve it)',
      ]);
      expect(
        registryFromCatalogue(catalogue(loose), { tables: { log: { key: 'at' } } }).registry.collection('log')!.model
          .key,
      ).to.equal('at');
    });

    it('serves a view read-only by its id column', () => {
      const view: CatalogueTable = {
        ...table('person_view', ['id:integer', 'name:string']),
        kind: 'view',
        primaryKey: [],
      };
      const c = registryFromCatalogue(catalogue(view)).registry.collection('person_view')!;
      expect([...c.methods]).to.deep.equal(['GET']);
      expect(c.model.columns.get('id')!.nullable).to.equal(false);
    });

    it('serves a view by its ID column in any letter case, and by none when two of them differ only in case', () => {
      const upper: CatalogueTable = {
        ...table('staff_list', ['ID:integer', 'name:string']),
        kind: 'view',
        primaryKey: [],
      };
      expect(registryFromCatalogue(catalogue(upper)).registry.collection('staff_list')!.model.key).to.equal('ID');
      const both: CatalogueTable = { ...table('twice', ['Id:integer', 'ID:integer']), kind: 'view', primaryKey: [] };
      const { registry, warnings } = registryFromCatalogue(catalogue(both));
      expect(registry.collection('twice')).to.equal(undefined);
      expect(warnings.join('\n')).to.include('twice: a view without an id column');
    });

    it('leaves out a table whose key has no type of the project, or one that cannot address a resource', () => {
      const blobKey = table('blobbed', ['id:', 'x:integer']);
      const jsonKey = table('jsoned', ['id:json!']);
      const { registry, warnings } = registryFromCatalogue(catalogue(blobKey, jsonKey));
      expect(registry.collections.size).to.equal(0);
      expect(warnings).to.deep.equal([
        'blobbed: the key column id: type blob is not one colapi supports; the table is left out',
        'jsoned: the key column id is a json, which cannot address a resource; the table is left out',
      ]);
    });

    it('leaves out a composite foreign key to other columns than a primary key, with a warning', () => {
      const a = table('a', ['id:integer+', 'x:integer', 'y:integer'], {
        foreignKeys: [{ columns: ['x', 'y'], table: 'b', references: ['p', 'q'] }],
      });
      const b = table('b', ['id:integer+', 'p:integer', 'q:integer']);
      const { registry, warnings } = registryFromCatalogue(catalogue(a, b));
      expect(registry.collection('a')!.relationships.size).to.equal(0);
      expect(warnings).to.deep.equal([
        'a: foreign key (x, y) → b: a key of several columns gives a relationship only when it refers to the primary key of a served table',
      ]);
    });

    it('makes a composite foreign key to a primary key a relationship and its inverse, paired in key order', () => {
      const a = table('a', ['id:integer+', 'x:integer', 'y:integer'], {
        foreignKeys: [{ columns: ['y', 'x'], table: 'b', references: ['q', 'p'] }],
      });
      const b = table('b', ['p:integer', 'q:integer'], { primaryKey: ['p', 'q'] });
      const { registry, warnings } = registryFromCatalogue(catalogue(a, b));
      expect(warnings).to.deep.equal([]);
      expect(registry.collection('a')!.relationships.get('b')).to.deep.include({
        cardinality: 'one',
        join: { kind: 'composite', on: 'owner', ownColumns: ['x', 'y'], targetColumns: ['p', 'q'] },
      });
      expect(registry.collection('b')!.relationships.get('as')).to.deep.include({
        cardinality: 'many',
        join: { kind: 'composite', on: 'target', ownColumns: ['p', 'q'], targetColumns: ['x', 'y'] },
      });
      expect(registry.collection('b')!.model.keyColumns).to.deep.equal(['p', 'q']);
    });

    it('leaves knex migration tables out unless exposed', () => {
      const migrations = table('knex_migrations', ['id:integer+', 'name:string']);
      expect([...registryFromCatalogue(catalogue(migrations, person)).registry.collections.keys()]).to.deep.equal([
        'person',
      ]);
      expect([
        ...registryFromCatalogue(catalogue(migrations, person), {
          expose: ['knex_migrations'],
        }).registry.collections.keys(),
      ]).to.deep.equal(['knex_migrations']);
    });

    it('marks a column with a default as one a create need not send', () => {
      const t = table('counter', ['id:integer+', 'n:integer!=']);
      const model = registryFromCatalogue(catalogue(t)).models.get('counter')!;
      expect(model.columns.get('n')).to.deep.equal({ name: 'n', type: 'integer', nullable: false, hasDefault: true });
      expect(model.columns.get('id')).to.deep.equal({
        name: 'id',
        type: 'integer',
        nullable: false,
        generated: true,
        hasDefault: true,
      });
    });
  });

  describe('configuration', () => {
    const article = table(
      'article',
      ['id:integer+', 'title:string', 'body:string', 'secret:string', 'author_id:integer'],
      { foreignKeys: [fk('author_id', 'person')] },
    );
    const c = catalogue(article, person);

    it('renames and hides columns and relationships, sets types, and names collections with their options', () => {
      const { registry } = registryFromCatalogue(c, {
        tables: {
          article: {
            columns: { secret: { hidden: true }, body: { name: 'text' }, title: { type: 'json' } },
            relationships: { author: { name: 'writer' } },
            collections: [
              { name: 'posts', methods: ['GET'], allow_functions: true },
              { name: 'post_titles', only: ['title'] },
            ],
          },
          person: { relationships: { articles: { hidden: true } } },
        },
      });
      expect([...registry.collections.keys()]).to.deep.equal(['posts', 'post_titles', 'person']);
      const posts = registry.collection('posts')!;
      expect([...posts.columns.keys()]).to.deep.equal(['id', 'title', 'text', 'author_id']);
      expect(posts.columns.get('text')).to.include({ name: 'text', column: 'body' });
      expect(posts.columns.get('title')!.type).to.equal('json');
      expect([...posts.relationships.keys()]).to.deep.equal(['writer']);
      expect(posts.allowFunctions).to.equal(true);
      expect([...posts.methods]).to.deep.equal(['GET']);
      expect([...registry.collection('post_titles')!.columns.keys()]).to.deep.equal(['id', 'title']);
      expect(registry.collection('person')!.relationships.size).to.equal(0);
    });

    it('serves only the exposed tables, and hides hidden ones', () => {
      expect([...registryFromCatalogue(c, { expose: ['person'] }).registry.collections.keys()]).to.deep.equal([
        'person',
      ]);
      expect([
        ...registryFromCatalogue(c, { tables: { article: { hidden: true } } }).registry.collections.keys(),
      ]).to.deep.equal(['person']);
    });

    it('names the place of every mistake', () => {
      expect(configError(c, { tables: { nope: {} } })).to.equal(
        'tables.nope: no table or view "nope" in schema public',
      );
      expect(configError(c, { expose: ['person', 'nope'] })).to.equal(
        'expose[1]: no table or view "nope" in schema public',
      );
      expect(configError(c, { tables: { article: { columns: { titel: { hidden: true } } } } })).to.equal(
        'tables.article.columns.titel: article has no column "titel"',
      );
      expect(configError(c, { tables: { article: { columns: { id: { hidden: true } } } } })).to.equal(
        'tables.article.columns.id.hidden: the key of article cannot be hidden',
      );
      expect(configError(c, { tables: { article: { columns: { author_id: { name: 'writer_id' } } } } })).to.equal(
        'tables.article.columns.author_id.name: author_id is a key or foreign-key column and keeps its name; rename the relationship instead',
      );
      expect(configError(c, { tables: { article: { relationships: { writer: {} } } } })).to.equal(
        'tables.article.relationships.writer: no relationship "writer" is derived for this table (derived: author)',
      );
      expect(configError(c, { tables: { article: { relationships: { author: { name: 'title' } } } } })).to.equal(
        'tables.article.relationships.author.name: "title" is already the name of a field of this table',
      );
      expect(configError(c, { tables: { article: { collections: [{ only: ['titel'] }] } } })).to.equal(
        'tables.article.collections[0].only[0]: "titel" is not a field of article (fields: id, title, body, secret, author_id, author)',
      );
      expect(configError(c, { tables: { article: { collections: [{}, {}] } } })).to.equal(
        'tables.article.collections[1].name: every collection but the first of a table needs a name',
      );
      expect(configError(c, { tables: { article: { collections: [] } } })).to.equal(
        'tables.article.collections: list at least one collection, or hide the table with "hidden": true',
      );
      expect(configError(c, { tables: { article: { collections: [{ name: 'person' }] } } })).to.equal(
        'tables: collection "person" is registered twice',
      );
      expect(configError(c, { tables: { article: { key: 'nope' } } })).to.equal(
        'tables.article.key: "nope" is not a column of article',
      );
      const view: CatalogueTable = { ...table('v', ['id:integer']), kind: 'view', primaryKey: [] };
      expect(configError(catalogue(view), { tables: { v: { collections: [{ methods: ['GET', 'POST'] }] } } })).to.equal(
        'tables.v.collections[0].methods: v is a view, served read-only: GET only',
      );
    });

    it('leaves out a table named eval, unless its collection is named otherwise', () => {
      const evaluation = table('eval', ['id:integer+']);
      expect(registryFromCatalogue(catalogue(evaluation)).warnings[0]).to.match(
        /^eval: the collection name "eval" is reserved/,
      );
      expect([
        ...registryFromCatalogue(catalogue(evaluation), {
          tables: { eval: { collections: [{ name: 'evaluations' }] } },
        }).registry.collections.keys(),
      ]).to.deep.equal(['evaluations']);
    });
  });
});

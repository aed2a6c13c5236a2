import { expect } from 'chai';
import {
  registryFromCatalogue,
  type Catalogue,
  type CatalogueColumn,
  type CatalogueConfig,
  type CatalogueTable,
  type TablePrivileges,
} from '../src/index.js';

/** A column `name:privileges`, the privileges among `s`, `i`, `u`; `name` alone for a database without privileges. */
function col(spec: string): CatalogueColumn {
  const [name, grants] = spec.split(':') as [string, string | undefined];
  return {
    name,
    sqlType: 'integer',
    type: name === 'id' ? 'integer' : 'string',
    nullable: name !== 'id',
    hasDefault: false,
    autoIncrement: name === 'id',
    computed: false,
    ...(grants === undefined
      ? {}
      : { privileges: { select: grants.includes('s'), insert: grants.includes('i'), update: grants.includes('u') } }),
  };
}

function table(name: string, columns: string[], privileges?: TablePrivileges, rest: Partial<CatalogueTable> = {}) {
  return {
    name,
    kind: 'table' as const,
    columns: columns.map(col),
    primaryKey: ['id'],
    uniques: [],
    foreignKeys: [],
    ...(privileges ? { privileges } : {}),
    ...rest,
  };
}

const ALL: TablePrivileges = { select: 'all', delete: true };
const catalogue = (...tables: CatalogueTable[]): Catalogue => ({ dialect: 'postgres', tables, role: 'api' });
const methods = (c: Catalogue, collection: string, config?: CatalogueConfig) => [
  ...registryFromCatalogue(c, config).registry.collection(collection)!.methods,
];

describe('registryFromCatalogue: the privileges of the connecting role', () => {
  it('serves everything where the database has no privileges', () => {
    const c = catalogue(table('note', ['id', 'body']));
    expect(methods(c, 'note')).to.deep.equal(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']);
    expect(registryFromCatalogue(c).warnings).to.deep.equal([]);
  });

  it('leaves out a table the role may not read, and one it may read only some columns of', () => {
    const { registry, warnings } = registryFromCatalogue(
      catalogue(
        table('secret', ['id:i', 'body:i'], { select: 'none', delete: false }),
        table('person', ['id:s', 'name:s', 'salary:'], { select: 'some', delete: false }),
        table('note', ['id:siu', 'body:siu'], ALL),
      ),
    );
    expect([...registry.collections.keys()]).to.deep.equal(['note']);
    expect(warnings).to.deep.equal([
      'secret: role api has no SELECT privilege on it; the table is left out',
      'person: role api may read only some of its columns (not salary), and colapi reads every column of a row; the table is left out (grant SELECT on the table, or serve a view of the columns it may read)',
    ]);
  });

  it('serves a table the role may only read with GET alone, and says which methods it withholds', () => {
    const c = catalogue(table('tag', ['id:s', 'name:s'], { select: 'all', delete: false }));
    expect(methods(c, 'tag')).to.deep.equal(['GET']);
    expect(registryFromCatalogue(c).warnings).to.deep.equal([
      'tag: role api lacks INSERT, UPDATE, DELETE on it; POST, PATCH, PUT, DELETE are not served',
    ]);
  });

  it('names the columns a partial INSERT or UPDATE grant leaves out; the key needs no UPDATE', () => {
    const c = catalogue(table('person', ['id:si', 'name:siu', 'born:su'], ALL));
    expect(methods(c, 'person')).to.deep.equal(['GET', 'PATCH', 'PUT', 'DELETE']);
    expect(registryFromCatalogue(c).warnings).to.deep.equal([
      'person: role api lacks INSERT (columns born) on it; POST is not served',
    ]);
  });

  it('asks nothing of a hidden column, and finds a renamed one by its database name', () => {
    const c = catalogue(table('person', ['id:siu', 'name:siu', 'born:s'], ALL));
    const config = { tables: { person: { columns: { born: { hidden: true } } } } };
    expect(methods(c, 'person', config)).to.deep.equal(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']);
    const renamed = { tables: { person: { columns: { born: { name: 'birth_date' } } } } };
    expect(methods(c, 'person', renamed)).to.deep.equal(['GET', 'DELETE']);
  });

  it('withholds configured methods too, and warns only when one is withheld', () => {
    const c = catalogue(table('tag', ['id:s', 'name:s'], { select: 'all', delete: false }));
    const readOnly = { tables: { tag: { collections: [{ methods: ['GET' as const] }] } } };
    expect(registryFromCatalogue(c, readOnly).warnings).to.deep.equal([]);
    const asked = { tables: { tag: { collections: [{ methods: ['GET' as const, 'POST' as const] }] } } };
    expect(methods(c, 'tag', asked)).to.deep.equal(['GET']);
    expect(registryFromCatalogue(c, asked).warnings).to.deep.equal([
      'tag: role api lacks INSERT, UPDATE, DELETE on it; POST is not served',
    ]);
  });

  it('leaves out the many-to-many relationships of a join table the role may not read', () => {
    const fk = (column: string, target: string) => ({ columns: [column], table: target, references: ['id'] });
    const join = table(
      'article_tag',
      ['article_id:', 'tag_id:'],
      { select: 'none', delete: false },
      {
        primaryKey: ['article_id', 'tag_id'],
        foreignKeys: [fk('article_id', 'article'), fk('tag_id', 'tag')],
      },
    );
    const { registry, warnings } = registryFromCatalogue(
      catalogue(table('article', ['id:siu'], ALL), join, table('tag', ['id:siu'], ALL)),
    );
    expect([...registry.collection('article')!.relationships.keys()]).to.deep.equal([]);
    expect(warnings).to.deep.equal([
      'article_tag: role api may not read this join table; the many-to-many relationships of article and tag are left out',
    ]);
  });

  it('withholds DELETE where a join table, whose rows a delete deletes first, lets the role only read', () => {
    const fk = (column: string, target: string) => ({ columns: [column], table: target, references: ['id'] });
    const join = table(
      'article_tag',
      ['article_id:s', 'tag_id:s'],
      { select: 'all', delete: false },
      {
        primaryKey: ['article_id', 'tag_id'],
        foreignKeys: [fk('article_id', 'article'), fk('tag_id', 'tag')],
      },
    );
    const c = catalogue(
      table('article', ['id:siu'], ALL),
      join,
      table('tag', ['id:siu'], { select: 'all', delete: false }),
    );
    expect(methods(c, 'article')).to.deep.equal(['GET', 'POST', 'PATCH', 'PUT']);
    expect(registryFromCatalogue(c).warnings).to.deep.equal([
      'article: role api lacks DELETE on article_tag; DELETE is not served',
      'tag: role api lacks DELETE on it and DELETE on article_tag; DELETE is not served',
    ]);
  });

  it('asks only SELECT of a view, which is read-only anyway', () => {
    const view = table('summary', ['id:s', 'total:s'], { select: 'all', delete: false }, { kind: 'view' });
    expect(methods(catalogue(view), 'summary')).to.deep.equal(['GET']);
    expect(registryFromCatalogue(catalogue(view)).warnings).to.deep.equal([]);
  });
});

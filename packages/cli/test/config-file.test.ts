import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, validateConfig } from '../src/index.js';

const mistake = (value: unknown) => {
  try {
    validateConfig(value, 'colapi.config.json');
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('no error');
};

describe('the configuration file', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'colapi-config-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts every setting, and ignores an editor schema reference', () => {
    const config = {
      $schema: './schema.json',
      schema: 'shop',
      expose: ['a'],
      tables: {
        a: {
          hidden: false,
          key: 'code',
          columns: { x: { name: 'y', hidden: false, type: 'date' } },
          relationships: { r: { name: 's', hidden: true } },
          collections: [
            {
              name: 'as',
              methods: ['GET', 'PUT'],
              allow_functions: true,
              allow_client_generated_ids: false,
              only: ['y'],
              exclude: [],
              allow_to_many_replacement: false,
              allow_to_many_removal: true,
              total: 'none',
            },
          ],
        },
      },
    };
    const { $schema: _, ...expected } = config;
    expect(validateConfig(config, 'colapi.config.json')).to.deep.equal(expected);
  });

  it('names the place and the reason of each mistake', () => {
    expect(mistake([])).to.equal('colapi.config.json: must be an object, not []');
    expect(mistake({ table: {} })).to.equal(
      'colapi.config.json: table: unknown setting (did you mean tables?); known: $schema, schema, expose, tables, cursorSecret, grace, auth, roles, cors, atomic, requireIfMatch',
    );
    expect(mistake({ expose: 'person' })).to.equal('colapi.config.json: expose: must be a list, not "person"');
    expect(mistake({ expose: ['a', 3] })).to.equal('colapi.config.json: expose[1]: must be a non-empty string, not 3');
    expect(mistake({ tables: { a: { hidden: 'yes' } } })).to.equal(
      'colapi.config.json: tables.a.hidden: must be true or false, not "yes"',
    );
    expect(mistake({ tables: { a: { columns: { x: { type: 'geometry' } } } } })).to.equal(
      'colapi.config.json: tables.a.columns.x.type: must be one of integer, number, string, boolean, date, time, datetime, interval, inet, json, uuid, decimal, binary, enum, set, datetimetz, array, not "geometry"',
    );
    expect(mistake({ tables: { a: { collections: [{ methods: ['GET', 'HEAD'] }] } } })).to.equal(
      'colapi.config.json: tables.a.collections[0].methods[1]: must be one of GET, POST, PATCH, PUT, DELETE, not "HEAD"',
    );
    expect(mistake({ tables: { a: { collections: {} } } })).to.equal(
      'colapi.config.json: tables.a.collections: must be a list, not {}',
    );
  });

  const AUTH = { jwt: [{ secret: 'a-secret-of-at-least-thirty-two-characters', algorithms: ['HS256'] }] };

  it('keeps auth and roles as written, for createApi; their rules are checked against the collections later', () => {
    const config = { tables: {}, auth: { ...AUTH, anonymous: 'anon' }, roles: { anon: { x: { read: true } } } };
    expect(validateConfig(config, 'colapi.config.json')).to.deep.equal(config);
  });

  it('wants auth and roles together, auth whole, and rules for its anonymous role', () => {
    expect(mistake({ roles: {} })).to.equal(
      'colapi.config.json: roles: access rules need "auth" beside them, to tell which role a request acts as (add "auth", or remove "roles")',
    );
    expect(mistake({ auth: AUTH })).to.equal(
      'colapi.config.json: auth: needs "roles" beside it: a role without rules may do nothing, so every request would be refused (add "roles", or remove "auth")',
    );
    expect(mistake({ auth: AUTH, roles: [] })).to.equal(
      'colapi.config.json: roles: must be an object keyed by role name, not []',
    );
    expect(mistake({ auth: { jwt: [{ secret: 'short', algorithms: ['HS256'] }] }, roles: {} })).to.equal(
      'colapi.config.json: auth.jwt[0].secret: must be at least 32 characters long (it has 5)',
    );
    expect(mistake({ auth: { ...AUTH, role_claim: 'r' }, roles: {} })).to.match(
      /^colapi\.config\.json: auth\.role_claim: unknown setting; known: jwt, roleClaim/,
    );
    expect(mistake({ auth: { ...AUTH, anonymous: 'anon' }, roles: { member: {} } })).to.equal(
      'colapi.config.json: auth.anonymous: the role "anon" has no rules in roles (known: member)',
    );
  });

  it('reads the file named, the default file when present, or nothing', () => {
    expect(loadConfig(undefined, dir)).to.deep.equal({ config: {} });
    writeFileSync(join(dir, 'colapi.config.json'), '{"expose":["a"]}');
    expect(loadConfig(undefined, dir)).to.deep.equal({
      config: { expose: ['a'] },
      file: join(dir, 'colapi.config.json'),
    });
    expect(() => loadConfig('missing.json', dir)).to.throw(ConfigError, 'missing.json: cannot be read (ENOENT)');
  });

  it('tells the line and column of a JSON syntax error', () => {
    writeFileSync(join(dir, 'broken.json'), '{\n  "expose": ["a",]\n}');
    expect(() => loadConfig('broken.json', dir)).to.throw(
      ConfigError,
      /^broken\.json: not valid JSON: unexpected "]" at line 2, column 18$/,
    );
    const cases: [string, string][] = [
      ['{"a" 1}', 'unexpected "1" at line 1, column 6'],
      ['{"a": tru}', 'unexpected "}" at line 1, column 10'],
      ['{"a": 1', 'unexpected end of text at line 1, column 8'],
      ["{'a': 1}", 'unexpected "\'" at line 1, column 2'],
      ['{"a": 01}', 'unexpected "1" at line 1, column 8'],
      ['{}\n{}', 'unexpected "{" at line 2, column 1'],
    ];
    for (const [text, place] of cases) {
      writeFileSync(join(dir, 'broken.json'), text);
      expect(() => loadConfig('broken.json', dir), text).to.throw(ConfigError, `broken.json: not valid JSON: ${place}`);
    }
  });
});

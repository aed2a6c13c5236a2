import { signDevelopmentToken, validateAuthConfig } from '@colapi/auth';
import { connect, disconnect, type Database } from '@colapi/sql-compiler';
import { HttpClient, testDatabaseOrSkip, testedKinds, type TestDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { colapi, freePort, line, type Run, stop } from './colapi-process.js';

/**
 * Two tenants: a person belongs to one (tenant_id), a project too, and has an owner. `tag` is served but
 * member has no rule for it. DDL only, as a database colapi meets.
 */
const DDL: Record<string, readonly string[]> = {
  postgres: [
    'create table person (id serial primary key, name varchar(40) not null, tenant_id integer not null)',
    `create table project (id serial primary key, name varchar(80) not null, tenant_id integer not null,
      owner_id integer references person (id), secret_note varchar(80))`,
    'create table tag (id serial primary key, label varchar(40) not null)',
  ],
  mysql: [
    'create table person (id integer auto_increment primary key, name varchar(40) not null, tenant_id integer not null)',
    `create table project (id integer auto_increment primary key, name varchar(80) not null, tenant_id integer not null,
      owner_id integer, secret_note varchar(80), foreign key (owner_id) references person (id))`,
    'create table tag (id integer auto_increment primary key, label varchar(40) not null)',
  ],
  sqlite: [
    'create table person (id integer primary key, name varchar(40) not null, tenant_id integer not null)',
    `create table project (id integer primary key, name varchar(80) not null, tenant_id integer not null,
      owner_id integer references person (id), secret_note varchar(80))`,
    'create table tag (id integer primary key, label varchar(40) not null)',
  ],
};

const ROWS = [
  "insert into person (name, tenant_id) values ('ann', 1)",
  "insert into person (name, tenant_id) values ('bob', 2)",
  "insert into person (name, tenant_id) values ('cid', 1)",
  "insert into project (name, tenant_id, owner_id, secret_note) values ('alpha', 1, 1, 'a1')",
  "insert into project (name, tenant_id, owner_id, secret_note) values ('beta', 2, 2, 'b2')",
  "insert into project (name, tenant_id, owner_id, secret_note) values ('gamma', 1, 3, 'g1')",
  "insert into tag (label) values ('red')",
];

const AUTH = {
  jwt: [
    {
      secret: 'a-cli-test-secret-of-at-least-thirty-two-characters',
      algorithms: ['HS256'],
      issuer: 'https://id.test',
      audience: 'colapi',
    },
  ],
};

const tenant = { name: 'tenant_id', op: '==', val: { claim: 'tenant' } };

const ROLES = {
  member: {
    person: { read: { where: [tenant] } },
    project: {
      read: { where: [tenant], exclude: ['secret_note'] },
      create: { set: { tenant_id: { claim: 'tenant' }, owner_id: { claim: 'person' } } },
    },
  },
};

/** The rules after a change: member may read tags too. */
const ROLES_WITH_TAGS = { member: { ...ROLES.member, tag: { read: true } } };

const project = (attributes: Record<string, unknown>) => ({ data: { type: 'project', attributes } });

describe('colapi serve with auth and roles', function () {
  this.timeout(60_000);
  let dir: string;
  let configFile: string;
  /** Tokens made by `colapi token`, once: they depend on the configuration's auth only. */
  let tenant1: Record<string, string>;
  let tenant2: Record<string, string>;
  /** A role the rules do not name: `colapi token` refuses to make one, so it is signed here. */
  let stranger: Record<string, string>;
  const write = (config: unknown) => writeFileSync(configFile, JSON.stringify(config, null, 2));

  async function token(...args: string[]): Promise<string> {
    const run = colapi(['token', '--config', configFile, ...args]);
    expect(await run.exited, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    return run.stdout.trim();
  }
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'colapi-access-'));
    configFile = join(dir, 'colapi.config.json');
    write({ auth: AUTH, roles: ROLES });
    const [one, two] = await Promise.all([
      token('--role', 'member', '--claim', 'tenant=1', '--claim', 'person=3', '--sub', 'u1', '--expires', '1h'),
      token('--role', 'member', '--claim', 'tenant=2', '--claim', 'person=2'),
    ]);
    tenant1 = bearer(one!);
    tenant2 = bearer(two!);
    stranger = bearer(
      await signDevelopmentToken(validateAuthConfig(AUTH, 'test'), { role: 'auditor', expiresIn: '1h' }),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('colapi token carries the role, the claims, the subject, issuer and audience, and expires as asked', () => {
    const payload = JSON.parse(Buffer.from(tenant1.authorization!.split('.')[1]!, 'base64url').toString());
    expect(payload).to.include({ role: 'member', tenant: 1, person: 3, sub: 'u1', iss: 'https://id.test' });
    expect(payload.aud).to.equal('colapi');
    expect(payload.exp - payload.iat).to.equal(3600);
    const header = JSON.parse(Buffer.from(tenant1.authorization!.slice(7).split('.')[0]!, 'base64url').toString());
    expect(header.alg).to.equal('HS256');
  });

  it('names the file and the place of a rule that does not fit the collections, with exit code 2', async () => {
    const bad = join(dir, 'bad-rules.json');
    writeFileSync(
      bad,
      JSON.stringify({
        auth: AUTH,
        roles: { member: { project: { read: { where: [{ name: 'tenant', op: '==', val: 1 }] } } } },
      }),
    );
    const db = `sqlite:${join(dir, 'rules.sqlite')}`;
    const admin = connect(db);
    await admin.knex.raw(DDL.sqlite![1]!.replace(' references person (id)', ''));
    await disconnect(admin);
    const r = colapi(['serve', db, '--port', '0', '--config', bad]);
    expect(await r.exited).to.equal(2);
    expect(r.stderr).to.match(
      new RegExp(`^colapi: ${bad}: roles\\.member\\.project\\.read\\.where\\[0\\]\\.name: .+\\n$`),
    );
    expect(r.stderr.split('\n')).to.have.length(2);
  });

  it('names the file and the place of an auth mistake, and of roles without auth, with exit code 2', async () => {
    const short = join(dir, 'short-secret.json');
    writeFileSync(short, JSON.stringify({ auth: { jwt: [{ secret: 'short', algorithms: ['HS256'] }] }, roles: {} }));
    const alone = join(dir, 'roles-alone.json');
    writeFileSync(alone, JSON.stringify({ roles: ROLES }));
    const [a, b] = [short, alone].map((file) => colapi(['serve', 'sqlite::memory:', '--config', file]));
    expect(await a!.exited).to.equal(2);
    expect(a!.stderr).to.equal(
      `colapi: ${short}: auth.jwt[0].secret: must be at least 32 characters long (it has 5)\n`,
    );
    expect(await b!.exited).to.equal(2);
    expect(b!.stderr).to.match(new RegExp(`^colapi: ${alone}: roles: access rules need "auth" beside them`));
  });

  describe('colapi token refuses, in one line with exit code 2', () => {
    const refusal = async (config: unknown, ...args: string[]) => {
      const file = join(dir, `token-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(file, JSON.stringify(config));
      const run = colapi(['token', '--config', file, ...args]);
      const code = await run.exited;
      expect(run.stdout).to.equal('');
      expect(run.stderr.split('\n')).to.have.length(2);
      return { code, stderr: run.stderr.replace(file, 'FILE') };
    };

    it('a configuration without auth, or without a secret verifier', async () => {
      const publicKey =
        '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----';
      const [none, keyOnly] = await Promise.all([
        refusal({ tables: {} }, '--role', 'member'),
        refusal({ auth: { jwt: [{ publicKey, algorithms: ['EdDSA'] }] }, roles: ROLES }, '--role', 'member'),
      ]);
      expect(none).to.deep.equal({
        code: 2,
        stderr:
          'colapi: FILE has no auth: colapi serve checks no token with it (add auth and roles; see colapi --help)\n',
      });
      expect(keyOnly).to.deep.equal({
        code: 2,
        stderr:
          'colapi: FILE: no auth.jwt verifier has a secret, and colapi token signs with a shared secret; tokens for this configuration come from its identity provider\n',
      });
    });

    it('a role without rules, a malformed --claim, a claim the token sets itself, a malformed --expires', async () => {
      const config = { auth: AUTH, roles: ROLES };
      const answers = await Promise.all([
        refusal(config, '--role', 'admin'),
        refusal(config, '--role', 'member', '--claim', 'tenant'),
        refusal(config, '--role', 'member', '--claim', 'exp=1'),
        refusal(config, '--role', 'member', '--expires', '1y'),
        refusal(config, '--claim', 'tenant=1'),
      ]);
      expect(answers.map((a) => a.code)).to.deep.equal([2, 2, 2, 2, 2]);
      expect(answers.map((a) => a.stderr)).to.deep.equal([
        'colapi: --role admin: FILE has no rules for that role; its roles: member\n',
        'colapi: --claim "tenant" is not a claim: write name=value\n',
        'colapi: --claim: exp is set by the token itself, not as a claim\n',
        'colapi: --expires must be a whole number and s, m, h or d, such as 3600s, 30m, 1h or 7d; got "1y"\n',
        'colapi: give the role of the token: --role NAME\n',
      ]);
    });
  });

  for (const kind of testedKinds()) {
    describe(`on ${kind}`, () => {
      let db: TestDatabase | undefined;
      let sql: Database;
      let run: Run | undefined;
      let a: HttpClient;
      /** The names of the projects an answer lists. */
      const names = (body: { data: { attributes: { name: string } }[] }) => body.data.map((r) => r.attributes.name);

      before(async function () {
        db = await testDatabaseOrSkip(this, kind);
        sql = connect(db!.url, { pool: { min: 0, max: 2 } });
        for (const statement of [...DDL[kind]!, ...ROWS]) await sql.knex.raw(statement);
        write({ auth: AUTH, roles: ROLES });
        run = colapi(['serve', db!.url, '--port', String(await freePort()), '--config', configFile]);
        const [, origin] = await line(run, /^listening on (http:\/\/\S+)$/);
        a = new HttpClient(origin!, 'application/vnd.api+json');
      });
      after(async () => {
        await stop(run);
        if (sql) await disconnect(sql);
        await db?.drop();
      });

      it('says at start which roles the rules name, and that a request without a token is refused', () => {
        expect(run!.stderr).to.contain(
          'colapi: access rules for role member; a request without a token is refused (401)\n',
        );
        expect(run!.stderr).not.to.contain('no auth in the configuration');
      });

      it("shows each tenant only its rows, without the fields read excludes; another tenant's row is 404", async () => {
        const one = await a.get('/api/project?sort=id', { headers: tenant1 });
        expect(one.status, one.text).to.equal(200);
        expect(names(one.body)).to.deep.equal(['alpha', 'gamma']);
        expect(one.body.data[0].attributes).not.to.have.property('secret_note');
        const two = await a.get('/api/project', { headers: tenant2 });
        expect(names(two.body)).to.deep.equal(['beta']);
        expect((await a.get('/api/project/2', { headers: tenant1 })).status).to.equal(404);
        const owners = await a.get('/api/project/1?include=owner', { headers: tenant1 });
        expect(owners.body.included.map((p: { attributes: { name: string } }) => p.attributes.name)).to.deep.equal([
          'ann',
        ]);
      });

      it('answers 401 with WWW-Authenticate: Bearer without a token (no anonymous role)', async () => {
        const res = await a.get('/api/project');
        expect(res.status).to.equal(401);
        expect(res.headers.get('www-authenticate')).to.equal('Bearer');
      });

      it('answers 403 to a role without rules, and to an action its role lacks', async () => {
        const res = await a.get('/api/project', { headers: stranger });
        expect(res.status).to.equal(403);
        expect(res.headers.get('www-authenticate')).to.equal('Bearer error="insufficient_scope"');
        expect((await a.delete('/api/project/1', { headers: tenant1 })).status).to.equal(403);
      });

      it('answers 404 for a collection its role has no rule for, as for one that does not exist', async () => {
        const tag = await a.get('/api/tag', { headers: tenant1 });
        expect(tag.status).to.equal(404);
        const nothing = await a.get('/api/nothing', { headers: tenant1 });
        expect(tag.text.replaceAll('tag', 'X')).to.equal(nothing.text.replaceAll('nothing', 'X'));
      });

      it('serves each role the OpenAPI document of what it may see, and none to a request without a token', async () => {
        const none = await a.get('/api/openapi.json');
        expect(none.status).to.equal(401);
        expect(none.headers.get('www-authenticate')).to.equal('Bearer');
        const doc = await a.get('/api/openapi.json', { headers: tenant1 });
        expect(doc.status, doc.text).to.equal(200);
        expect(doc.headers.get('vary')).to.contain('Authorization');
        const paths = Object.keys(doc.body.paths);
        expect(paths).to.include('/api/project');
        expect(paths.some((p) => p.startsWith('/api/tag'))).to.equal(false);
        expect(doc.text).not.to.contain('secret_note');
      });

      it('sets the tenant and the owner of a created row from the token', async () => {
        const res = await a.post('/api/project', project({ name: 'delta' }), { headers: tenant1 });
        expect(res.status, res.text).to.equal(201);
        const row = await sql.knex('project').where({ name: 'delta' }).first();
        expect([Number(row.tenant_id), Number(row.owner_id)]).to.deep.equal([1, 3]);
        const sent = await a.post('/api/project', project({ name: 'epsilon', tenant_id: 2 }), { headers: tenant1 });
        expect(sent.status, sent.text).to.equal(403);
        expect(await sql.knex('project').where({ name: 'epsilon' }).first()).to.equal(undefined);
      });

      it('writes an audit line on standard error for a refusal and for a write, never the token', async () => {
        /** The audit lines so far (JSON objects on standard error), without their time. */
        const audited = () =>
          run!.stderr
            .split('\n')
            .filter((l) => l.startsWith('{'))
            .map((l) => {
              const { time, ...rest } = JSON.parse(l) as Record<string, unknown>;
              expect(new Date(time as string).toISOString()).to.equal(time);
              return rest;
            });
        const created = await a.post('/api/project', project({ name: 'zeta' }), { headers: tenant2 });
        expect(created.status, created.text).to.equal(201);
        expect((await a.get('/api/person')).status).to.equal(401);
        const deadline = Date.now() + 5000;
        while (audited().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(audited()).to.deep.include({
          sub: null,
          role: 'member',
          method: 'POST',
          collection: 'project',
          id: created.body.data.id,
          status: 201,
        });
        expect(audited()).to.deep.include({
          sub: null,
          role: null,
          method: 'GET',
          collection: 'person',
          id: null,
          status: 401,
        });
        for (const t of [tenant1, tenant2]) expect(run!.stderr).not.to.contain(t.authorization!.slice(7));
      });

      it('applies changed rules to the next request after SIGHUP', async () => {
        write({ auth: AUTH, roles: ROLES_WITH_TAGS });
        run!.child.kill('SIGHUP');
        await line(run!, /^reloaded: /);
        const tag = await a.get('/api/tag', { headers: tenant1 });
        expect(tag.status, tag.text).to.equal(200);
        expect(tag.body.data.map((t: { attributes: { label: string } }) => t.attributes.label)).to.deep.equal(['red']);
      });

      it('keeps the previous rules when the new ones are broken, and says where', async () => {
        write({ auth: AUTH, roles: { member: { ...ROLES_WITH_TAGS.member, tag: { read: { columns: ['colour'] } } } } });
        run!.child.kill('SIGHUP');
        const deadline = Date.now() + 20_000;
        while (!run!.stderr.includes('reload failed') && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(run!.stderr).to.match(
          new RegExp(
            `colapi: reload failed, still serving the previous schema: ${configFile}: roles\\.member\\.tag\\.read\\.columns\\[0\\]: .+\\n`,
          ),
        );
        expect(run!.stdout.split('\n').filter((l) => l.startsWith('reloaded:'))).to.have.length(1);
        expect((await a.get('/api/tag', { headers: tenant1 })).status).to.equal(200);
        expect((await a.get('/api/project')).status).to.equal(401);
      });
    });
  }
});

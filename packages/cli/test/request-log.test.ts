import { signDevelopmentToken, validateAuthConfig } from '@colapi/auth';
import { connect, disconnect } from '@colapi/sql-compiler';
import { testDatabaseOrSkip, testedKinds, type TestDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { colapi, freePort, line, type Run, stop } from './colapi-process.js';

const DDL: Record<string, readonly string[]> = {
  postgres: ['create table note (id serial primary key, body varchar(80) not null, owner varchar(40) not null)'],
  mysql: [
    'create table note (id integer auto_increment primary key, body varchar(80) not null, owner varchar(40) not null)',
  ],
  sqlite: ['create table note (id integer primary key, body varchar(80) not null, owner varchar(40) not null)'],
};

const AUTH = {
  jwt: [{ secret: 'a-request-log-test-secret-of-thirty-two-or-more', algorithms: ['HS256'], audience: 'colapi' }],
};
/** A reader sees every note; a token without the role claim is refused. */
const ROLES = { reader: { note: { read: true, create: { set: { owner: { claim: 'sub' } } } } } };

/** The JSON lines of standard output, parsed: the request log's, written one per request. */
const logLines = (run: Run): Record<string, unknown>[] =>
  run.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** The log line of the request answered with this X-Request-Id; it comes a moment after the answer. */
async function lineOf(run: Run, requestId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const found = logLines(run).find((l) => l.request_id === requestId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no log line for ${requestId} in:\n${run.stdout}`);
}

describe('colapi serve: request log and COLAPI_* variables', function () {
  this.timeout(90_000);

  for (const kind of testedKinds()) {
    describe(`on ${kind}, configured by environment variables alone`, () => {
      let db: TestDatabase | undefined;
      let dir: string;
      let run: Run | undefined;
      let origin: string;
      let token: string;
      /** A token whose sub is itself a token: the log must not write it either. */
      let sneaky: string;

      before(async function () {
        db = await testDatabaseOrSkip(this, kind, 'colapi_i31l_');
        const sql = connect(db!.url);
        try {
          for (const statement of DDL[kind]!) await sql.knex.raw(statement);
          await sql.knex.raw("insert into note (body, owner) values ('first', 'u1')");
        } finally {
          await disconnect(sql);
        }
        dir = mkdtempSync(join(tmpdir(), 'colapi-i31l-'));
        writeFileSync(join(dir, 'config.json'), JSON.stringify({ auth: AUTH, roles: ROLES }));
        const auth = validateAuthConfig(AUTH, 'test');
        token = await signDevelopmentToken(auth, { role: 'reader', sub: 'user-1', expiresIn: '1h' });
        sneaky = await signDevelopmentToken(auth, { role: 'reader', sub: token, expiresIn: '1h' });
        const port = await freePort();
        run = colapi(['serve'], {
          DATABASE_URL: db!.url,
          COLAPI_PORT: String(port),
          COLAPI_FORMAT: 'legacy',
          COLAPI_CONFIG: join(dir, 'config.json'),
          COLAPI_LOG_LEVEL: 'info',
          COLAPI_SCHEMA: '',
        });
        [, origin] = (await line(run, /^listening on (http:\/\/\S+)$/)) as [string, string];
        expect(origin).to.equal(`http://127.0.0.1:${port}`);
      });
      after(async () => {
        await stop(run);
        await db?.drop();
        if (dir) rmSync(dir, { recursive: true, force: true });
      });

      const call = (path: string, requestId: string, init: RequestInit = {}, bearer: string | undefined = token) =>
        fetch(`${origin}${path}`, {
          ...init,
          headers: {
            accept: 'application/json',
            'x-request-id': requestId,
            ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
            ...(init.headers as Record<string, string> | undefined),
          },
        });

      it('serves in the format COLAPI_FORMAT names', async () => {
        const res = await call('/api/note', 'format-1');
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.contain('application/json');
        // Format B: the rows themselves, not a JSON:API document.
        expect(JSON.stringify(await res.json()))
          .to.contain('"body":"first"')
          .and.not.contain('"attributes"');
      });

      it('writes one JSON line per request: id, method, route template, status, duration, bytes, sub and role', async () => {
        const res = await call('/api/note/1?fields=body', 'read-1');
        expect(res.status).to.equal(200);
        expect(res.headers.get('x-request-id')).to.equal('read-1');
        const logged = await lineOf(run!, 'read-1');
        expect(logged).to.include({
          level: 30,
          msg: 'request',
          method: 'GET',
          route: '/api/:collection/:id',
          status: 200,
          bytes: Number(res.headers.get('content-length')),
          sub: 'user-1',
          role: 'reader',
        });
        expect(logged.duration_ms).to.be.a('number').and.at.least(0);
        // The route, never the URL: no id, no query.
        expect(JSON.stringify(logged)).not.to.contain('/api/note');
        expect(JSON.stringify(logged)).not.to.contain('fields');
      });

      it('logs a write, a refusal without sub or role, and paths outside the collections', async () => {
        const created = await call('/api/note', 'write-1', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ body: 'second' }),
        });
        expect(created.status).to.equal(201);
        expect(await lineOf(run!, 'write-1')).to.include({
          method: 'POST',
          route: '/api/:collection',
          status: 201,
          sub: 'user-1',
          role: 'reader',
        });
        const refused = await call('/api/note', 'refused-1', {}, 'not-a-token');
        expect(refused.status).to.equal(401);
        const line401 = await lineOf(run!, 'refused-1');
        expect(line401).to.include({ route: '/api/:collection', status: 401 });
        expect(line401).not.to.have.any.keys('sub', 'role');
        await call('/api/openapi.json', 'doc-1');
        expect(await lineOf(run!, 'doc-1')).to.include({ route: '/api/openapi.json', status: 200 });
        await call('/', 'page-1', {}, undefined);
        expect(await lineOf(run!, 'page-1')).to.include({ route: '/', status: 200 });
        await call('/api/note/1/2/3/4/5', 'deep-1');
        expect(await lineOf(run!, 'deep-1')).to.include({ route: '/api{/*rest}', status: 404 });
        const head = await call('/api/note/1', 'head-1', { method: 'HEAD' });
        expect(head.status).to.equal(200);
        expect(await lineOf(run!, 'head-1')).to.include({ method: 'HEAD', status: 200, bytes: 0 });
        const elsewhere = await call('/not/here/42', 'none-1');
        expect(elsewhere.status).to.equal(404);
        expect(await lineOf(run!, 'none-1')).to.include({ route: null, status: 404 });
      });

      it('never writes a token: not the bearer, not a token as sub, not a token as X-Request-Id', async () => {
        // A short signed token, which plain characters and 128 at most would let through as an id.
        const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
        const signed = `${part({ alg: 'HS256' })}.${part({ role: 'reader', aud: 'colapi' })}`;
        const asId = `${signed}.${createHmac('sha256', AUTH.jwt[0]!.secret).update(signed).digest('base64url')}`;
        expect(asId.length).to.be.at.most(128);
        const res = await call('/api/note/1', asId);
        expect(res.status).to.equal(200);
        const replaced = res.headers.get('x-request-id')!;
        expect(replaced).to.match(/^[0-9a-f-]{36}$/);
        await lineOf(run!, replaced);
        const sneakyRes = await call('/api/note/1', 'sneaky-1', {}, sneaky);
        expect(sneakyRes.status).to.equal(200);
        expect(await lineOf(run!, 'sneaky-1')).to.include({ sub: '[token]', role: 'reader' });
        const everything = run!.stdout + run!.stderr;
        for (const secret of [token, sneaky, asId]) {
          expect(everything).not.to.contain(secret);
          // Nor any of its parts: the signature alone would be a leak.
          for (const part of secret.split('.').slice(1)) expect(everything).not.to.contain(part);
        }
        expect(everything).not.to.match(/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\./);
      });
    });
  }

  describe('on sqlite: what the command line and the variables say', () => {
    let dir: string;
    let url: string;
    const runs: Run[] = [];
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'colapi-i31l-env-'));
      url = `sqlite:${join(dir, 'env.sqlite')}`;
      const sql = connect(url);
      await sql.knex.raw(DDL.sqlite![0]!);
      await disconnect(sql);
    });
    after(async () => {
      for (const r of runs) await stop(r);
      rmSync(dir, { recursive: true, force: true });
    });

    it('an option on the command line wins over its variable; --log-level warn drops the request lines', async () => {
      const port = await freePort();
      const run = colapi(['serve', url, '--format', 'jsonapi', '--port', String(port), '--log-level', 'warn'], {
        COLAPI_FORMAT: 'legacy',
        COLAPI_PORT: 'not-a-port',
        COLAPI_LOG_LEVEL: 'info',
      });
      runs.push(run);
      await line(run, new RegExp(`^listening on http://127\\.0\\.0\\.1:${port}$`));
      const res = await fetch(`http://127.0.0.1:${port}/api/note`, {
        headers: { accept: 'application/vnd.api+json', 'x-request-id': 'quiet-1' },
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.contain('application/vnd.api+json');
      // A later request's line would come after this one's: wait for none, then look.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(logLines(run)).to.deep.equal([]);
    });

    it('a bad value names the variable it came from, with exit code 2', async () => {
      const cases: [Record<string, string>, string][] = [
        [{ COLAPI_PORT: '99999' }, 'colapi: COLAPI_PORT must be a number from 0 to 65535; got "99999"\n'],
        [{ COLAPI_FORMAT: 'xml' }, 'colapi: COLAPI_FORMAT must be jsonapi or legacy; got "xml"\n'],
        [
          { COLAPI_LOG_LEVEL: 'loud' },
          'colapi: COLAPI_LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent; got "loud"\n',
        ],
      ];
      for (const [env, message] of cases) {
        const run = colapi(['serve', url], env);
        expect(await run.exited).to.equal(2);
        expect(run.stderr).to.equal(message);
      }
      // The same mistake on the command line names the option.
      const flag = colapi(['serve', url, '--log-level', 'loud']);
      expect(await flag.exited).to.equal(2);
      expect(flag.stderr).to.match(/^colapi: --log-level must be one of/);
    });
  });
});

import { connect, disconnect } from '@colapi/sql-compiler';
import { createLibrary, testDatabaseOrSkip, testedKinds, type TestDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { withCorsOrigins } from '../src/cors-origins.js';
import {
  ConfigError,
  parseArguments,
  serveCatalogue,
  UsageError,
  validateConfig,
  type CatalogueServer,
} from '../src/index.js';

const APP = 'https://app.example.com';

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('nothing thrown');
}

describe('colapi serve: cors in the configuration and --cors', () => {
  it('reads --cors as a list of origins, and names a wrong one', () => {
    const args = parseArguments(['serve', 'sqlite:x', '--cors', `${APP}, http://localhost:5173`], {});
    expect(args).to.include({ command: 'serve' });
    expect((args as { cors?: string[] }).cors).to.deep.equal([APP, 'http://localhost:5173']);
    const wrong = thrown(() => parseArguments(['serve', 'sqlite:x', '--cors', `${APP}/`], {}));
    expect(wrong).to.be.instanceOf(UsageError);
    expect(wrong.message).to.match(/^--cors: each origin must be an origin.*"https:\/\/app\.example\.com\/"/);
    expect(thrown(() => parseArguments(['token', '--role', 'r', '--cors', APP], {})).message).to.equal(
      '--cors is an option of colapi serve, not of colapi token',
    );
  });

  it('checks cors in the configuration file, naming the place', () => {
    const config = { cors: { origins: [APP], credentials: true, maxAge: 60, exposeHeaders: ['Location'] } };
    expect(validateConfig(config, 'c.json')).to.deep.equal(config);
    const mistakes: [unknown, string][] = [
      [{ origins: [] }, 'c.json: cors.origins: must be a non-empty list'],
      [{ origins: ['*'], credentials: true }, 'c.json: cors.origins[0]: "*" cannot be used with credentials'],
      [{ origins: [APP, 'app.example.com'] }, 'c.json: cors.origins[1]: must be an origin'],
      [{ origins: ['HTTPS://APP.example.com'] }, 'c.json: cors.origins[0]: must be an origin'],
      [{ origins: ['https://app.example.com:443'] }, 'c.json: cors.origins[0]: must be an origin'],
      [{ origins: [APP], maxAge: -1 }, 'c.json: cors.maxAge: must be a whole number'],
      [{ origins: [APP], credentials: 'yes' }, 'c.json: cors.credentials: must be true or false'],
      [{ origins: [APP], exposeHeaders: ['Bad Header'] }, 'c.json: cors.exposeHeaders[0]: must be a header name'],
      [{ origin: [APP] }, 'c.json: cors.origin: unknown setting'],
    ];
    for (const [cors, message] of mistakes) {
      const error = thrown(() => validateConfig({ cors }, 'c.json'));
      expect(error, message).to.be.instanceOf(ConfigError);
      expect(error.message.startsWith(message), `${error.message} / ${message}`).to.equal(true);
    }
  });

  it('--cors replaces the origins and keeps the other settings; "*" with credentials is refused', () => {
    const config = { cors: { origins: [APP], credentials: true, maxAge: 60 } };
    expect(withCorsOrigins(config, ['http://localhost:3000'])).to.deep.equal({
      cors: { origins: ['http://localhost:3000'], credentials: true, maxAge: 60 },
    });
    expect(withCorsOrigins({}, ['*'])).to.deep.equal({ cors: { origins: ['*'] } });
    expect(withCorsOrigins(config, undefined)).to.equal(config);
    expect(thrown(() => withCorsOrigins(config, ['*']))).to.be.instanceOf(ConfigError);
  });

  for (const kind of testedKinds()) {
    describe(`served on ${kind}`, () => {
      let db: TestDatabase | undefined;
      let running: CatalogueServer | undefined;
      before(async function () {
        db = await testDatabaseOrSkip(this, kind);
        const sql = connect(db!.url, { pool: { min: 0, max: 1 } });
        await createLibrary(sql.knex, kind);
        await disconnect(sql);
        running = await serveCatalogue({
          databaseUrl: db!.url,
          config: {
            cors: { origins: [APP], credentials: true },
            auth: { jwt: [{ secret: 'a-secret-of-at-least-thirty-two-characters', algorithms: ['HS256'] }] },
            roles: { reader: { book: { read: true } } },
          },
        });
      });
      after(async () => {
        await running?.close();
        await db?.drop();
      });

      it('answers a preflight before authentication, for the API and the OpenAPI document', async () => {
        for (const path of ['/api/book', '/api/book/1', '/api/openapi.json']) {
          const res = await fetch(`${running!.origin}${path}`, {
            method: 'OPTIONS',
            headers: {
              origin: APP,
              'access-control-request-method': 'GET',
              'access-control-request-headers': 'authorization',
            },
          });
          expect(res.status, path).to.equal(204);
          expect(res.headers.get('access-control-allow-origin')).to.equal(APP);
          expect(res.headers.get('access-control-allow-credentials')).to.equal('true');
          expect(res.headers.get('access-control-allow-headers')).to.equal('authorization');
          expect(res.headers.get('vary')).to.match(/Origin/);
        }
        // Without a token the request itself is refused, as before, and the page may read why.
        const res = await fetch(`${running!.origin}/api/book`, { headers: { origin: APP } });
        expect(res.status).to.equal(401);
        expect(res.headers.get('access-control-allow-origin')).to.equal(APP);
        const other = await fetch(`${running!.origin}/api/book`, {
          method: 'OPTIONS',
          headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
        });
        expect(other.status).to.equal(401);
        expect(other.headers.get('access-control-allow-origin')).to.equal(null);
      });
    });
  }
});

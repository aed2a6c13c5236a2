import { expect } from 'chai';
import { fromEnvironment, namingVariables, variableOf } from '../src/environment-options.js';
import { HELP, parseArguments, UsageError } from '../src/index.js';

const mistake = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  try {
    parseArguments(argv, env);
  } catch (error) {
    expect(error).to.be.instanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('no error');
};

describe('colapi arguments', () => {
  it('reads serve with its options and defaults', () => {
    expect(parseArguments(['serve', 'sqlite:/data/x.db'], {}, '/work')).to.deep.equal({
      command: 'serve',
      databaseUrl: 'sqlite:/data/x.db',
      format: 'jsonapi',
      port: 8080,
      host: '127.0.0.1',
      workers: 1,
      cwd: '/work',
    });
    expect(
      parseArguments(
        [
          'serve',
          'postgres://u@h/db',
          '--format',
          'legacy',
          '--port=0',
          '--host',
          '0.0.0.0',
          '--schema',
          'shop',
          '--config',
          'c.json',
        ],
        {},
        '/work',
      ),
    ).to.deep.equal({
      command: 'serve',
      databaseUrl: 'postgres://u@h/db',
      format: 'legacy',
      port: 0,
      host: '0.0.0.0',
      schema: 'shop',
      config: 'c.json',
      workers: 1,
      cwd: '/work',
    });
    expect(parseArguments(['serve'], { DATABASE_URL: 'mysql://root@127.0.0.1/test' })).to.include({
      databaseUrl: 'mysql://root@127.0.0.1/test',
    });
    expect(parseArguments(['-h'], {})).to.deep.equal({ command: 'help' });
  });

  it('reads a relative SQLite file from where the command was typed (INIT_CWD under pnpm)', () => {
    const url = (arg: string, env: NodeJS.ProcessEnv = {}) =>
      (parseArguments(['serve', arg], env, env.INIT_CWD || '/repo') as { databaseUrl: string }).databaseUrl;
    expect(url('sqlite:shop.sqlite')).to.equal('sqlite:/repo/shop.sqlite');
    expect(url('sqlite:data/shop.sqlite', { INIT_CWD: '/home/me' })).to.equal('sqlite:/home/me/data/shop.sqlite');
    expect(url('sqlite:///tmp/shop.sqlite')).to.equal('sqlite:///tmp/shop.sqlite');
    expect(url('sqlite::memory:')).to.equal('sqlite::memory:');
    expect(url('postgres://u@h/db')).to.equal('postgres://u@h/db');
  });

  it('reads --cursor-secret, refuses it empty or on token', () => {
    const args = parseArguments(['serve', 'sqlite:/x.db', '--cursor-secret', 's3cret'], {}, '/work');
    expect(args).to.deep.include({ command: 'serve', cursorSecret: 's3cret' });
    expect(mistake(['serve', 'sqlite:/x.db', '--cursor-secret', ''])).to.equal('--cursor-secret must not be empty');
    expect(mistake(['token', '--role', 'r', '--cursor-secret', 'k'])).to.equal(
      '--cursor-secret is an option of colapi serve, not of colapi token',
    );
  });

  it('names each mistake', () => {
    expect(mistake([])).to.equal('name a command: colapi serve <database-url>, or colapi token (see colapi --help)');
    expect(mistake(['start', 'sqlite:x'])).to.equal(
      'unknown command "start"; the commands are serve and token (see colapi --help)',
    );
    expect(mistake(['serve'])).to.equal('give the database URL: colapi serve <database-url>');
    expect(mistake(['serve', 'sqlite:x', 'extra'])).to.equal('unexpected argument "extra" after the database URL');
    expect(mistake(['serve', 'oracle://u:pw@h/db'])).to.equal(
      'the database URL must start with postgres://, mysql:// or sqlite:; got "oracle://u:***@h/db"',
    );
    expect(mistake(['serve', 'sqlite:x', '--port', '70000'])).to.equal(
      '--port must be a number from 0 to 65535; got "70000"',
    );
    expect(mistake(['serve', 'sqlite:x', '--format', 'xml'])).to.equal('--format must be jsonapi or legacy; got "xml"');
    expect(mistake(['serve', 'sqlite:x', '--verbose'])).to.match(/^Unknown option '--verbose'.*\(see colapi --help\)$/);
    expect(mistake(['serve', 'sqlite:x', '--role', 'member'])).to.equal(
      '--role is an option of colapi token, not of colapi serve',
    );
  });

  it('reads token with its options and defaults', () => {
    expect(
      parseArguments(
        ['token', '--role', 'member', '--claim', 'tenant=1', '--claim', 'code=007', '--claim', 'admin=false'],
        {},
        '/here',
      ),
    ).to.deep.equal({
      command: 'token',
      role: 'member',
      claims: { tenant: 1, code: '007', admin: false },
      expires: '1h',
      cwd: '/here',
    });
    expect(
      parseArguments(['token', '--config', 'c.json', '--role', 'r', '--sub', 'u1', '--expires', '30m'], {}, '/here'),
    ).to.deep.equal({
      command: 'token',
      role: 'r',
      sub: 'u1',
      claims: {},
      expires: '30m',
      config: 'c.json',
      cwd: '/here',
    });
    const own = parseArguments(['token', '--role', 'r', '--claim', '__proto__=1'], {}, '/') as { claims: object };
    expect(Object.getPrototypeOf(own.claims)).to.equal(Object.prototype);
    expect(Object.hasOwn(own.claims, '__proto__')).to.equal(true);
  });

  it('names each mistake of token', () => {
    expect(mistake(['token'])).to.equal('give the role of the token: --role NAME');
    expect(mistake(['token', 'sqlite:x', '--role', 'r'])).to.equal(
      'unexpected argument "sqlite:x": colapi token takes options only',
    );
    expect(mistake(['token', '--role', 'r', '--port', '1'])).to.equal(
      '--port is an option of colapi serve, not of colapi token',
    );
    expect(mistake(['token', '--role', 'r', '--claim', '=1'])).to.equal(
      '--claim "=1" is not a claim: write name=value',
    );
    expect(mistake(['token', '--role', 'r', '--claim', 'a=1', '--claim', 'a=2'])).to.equal('--claim a is given twice');
    expect(mistake(['token', '--role', 'r', '--sub', ''])).to.equal('--sub must not be empty');
    for (const expires of ['0h', '1.5h', '90', '1w', '1 h'])
      expect(mistake(['token', '--role', 'r', '--expires', expires])).to.equal(
        `--expires must be a whole number and s, m, h or d, such as 3600s, 30m, 1h or 7d; got "${expires}"`,
      );
  });

  it('reads every option of serve from COLAPI_<NAME> when the command line leaves it out', () => {
    const env = {
      DATABASE_URL: 'sqlite:/data/x.db',
      COLAPI_FORMAT: 'legacy',
      COLAPI_PORT: '9000',
      COLAPI_HOST: '0.0.0.0',
      COLAPI_SCHEMA: 'shop',
      COLAPI_CONFIG: 'c.json',
      COLAPI_LOG_LEVEL: 'debug',
      COLAPI_WORKERS: '3',
    };
    expect(parseArguments(['serve'], env, '/work')).to.deep.equal({
      command: 'serve',
      databaseUrl: 'sqlite:/data/x.db',
      format: 'legacy',
      port: 9000,
      host: '0.0.0.0',
      schema: 'shop',
      config: 'c.json',
      logLevel: 'debug',
      workers: 3,
      cwd: '/work',
    });
    // The command line wins; an empty variable is unset.
    expect(
      parseArguments(['serve', '--port', '1', '--log-level', 'warn'], { ...env, COLAPI_HOST: '' }, '/work'),
    ).to.include({ port: 1, logLevel: 'warn', host: '127.0.0.1', format: 'legacy' });
    // colapi token reads none of them, and a variable of serve is no mistake there.
    expect(parseArguments(['token', '--role', 'r'], { ...env, COLAPI_ROLE: 'x' }, '/work')).to.deep.equal({
      command: 'token',
      role: 'r',
      claims: {},
      expires: '1h',
      cwd: '/work',
    });
  });

  it('names the variable a bad value came from, and the option when it came from the command line', () => {
    expect(mistake(['serve', 'sqlite::memory:'], { COLAPI_PORT: 'x' })).to.equal(
      'COLAPI_PORT must be a number from 0 to 65535; got "x"',
    );
    expect(mistake(['serve', 'sqlite::memory:', '--port', 'x'], { COLAPI_FORMAT: 'legacy' })).to.equal(
      '--port must be a number from 0 to 65535; got "x"',
    );
    expect(mistake(['serve', 'sqlite::memory:'], { COLAPI_LOG_LEVEL: 'verbose' })).to.equal(
      'COLAPI_LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent; got "verbose"',
    );
    expect(mistake(['serve', 'sqlite::memory:'], { COLAPI_WORKERS: '65' })).to.equal(
      'COLAPI_WORKERS must be a whole number from 1 to 64; got "65"',
    );
    for (const workers of ['0', '65', '1.5', '-2', 'two', '', '007'])
      expect(mistake(['serve', 'sqlite::memory:', `--workers=${workers}`])).to.equal(
        `--workers must be a whole number from 1 to 64; got "${workers}"`,
      );
    expect(parseArguments(['serve', 'sqlite:x.db', '--workers', '64'], {})).to.include({ workers: 64 });
    expect(mistake(['serve', 'sqlite::memory:', '--workers', '2'])).to.equal(
      '--workers needs a database the workers share: an in-memory SQLite database is one per process',
    );
    expect(parseArguments(['serve', 'sqlite::memory:', '--workers', '1'], {})).to.include({ workers: 1 });
  });

  it('documents each variable in --help', () => {
    for (const variable of [
      'COLAPI_FORMAT',
      'COLAPI_PORT',
      'COLAPI_HOST',
      'COLAPI_SCHEMA',
      'COLAPI_CONFIG',
      'COLAPI_WORKERS',
      'COLAPI_LOG_LEVEL',
      'DATABASE_URL',
    ])
      expect(HELP).to.contain(variable);
    expect(HELP).not.to.match(/COLAPI_(ROLE|CLAIM|SUB|EXPIRES|HELP)\b/);
    expect(HELP).to.contain('--log-level LEVEL');
  });
});

describe('options from the environment (the mechanism)', () => {
  const options = { 'dry-run': { type: 'boolean' }, tag: { type: 'string', multiple: true } } as const;
  const mistakeOf = (message: string) => new UsageError(message);

  it('derives the name, reads booleans and repeatable options, and notes what it took', () => {
    expect(variableOf('admin-port')).to.equal('COLAPI_ADMIN_PORT');
    const values: Record<string, string | boolean | string[] | undefined> = {};
    const taken = new Map<string, string>();
    fromEnvironment(options, ['dry-run', 'tag'], values, { COLAPI_DRY_RUN: 'TRUE', COLAPI_TAG: 'a' }, taken, mistakeOf);
    expect(values).to.deep.equal({ 'dry-run': true, tag: ['a'] });
    expect([...taken]).to.deep.equal([
      ['dry-run', 'COLAPI_DRY_RUN'],
      ['tag', 'COLAPI_TAG'],
    ]);
    const zero: Record<string, string | boolean | string[] | undefined> = {};
    fromEnvironment(options, ['dry-run'], zero, { COLAPI_DRY_RUN: '0' }, new Map(), mistakeOf);
    expect(zero).to.deep.equal({ 'dry-run': false });
    expect(() => fromEnvironment(options, ['dry-run'], {}, { COLAPI_DRY_RUN: 'yes' }, new Map(), mistakeOf)).to.throw(
      UsageError,
      'COLAPI_DRY_RUN must be true, false, 1 or 0; got "yes"',
    );
  });

  it('renames only the flags that came from the environment', () => {
    const taken = new Map([['admin-port', 'COLAPI_ADMIN_PORT']]);
    expect(namingVariables('--admin-port must be a number; see --admin-host and --help', taken)).to.equal(
      'COLAPI_ADMIN_PORT must be a number; see --admin-host and --help',
    );
  });
});

import { expect } from 'chai';
import { ConfigError, parseArguments, UsageError, validateConfig } from '../src/index.js';

const mistake = (argv: string[]) => {
  try {
    parseArguments(argv, {});
  } catch (error) {
    expect(error).to.be.instanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('no error');
};

describe('colapi serve: the admin listener and draining options', () => {
  it('reads --admin-port, --admin-host, --ready-timeout and --grace', () => {
    const args = parseArguments(
      [
        'serve',
        'sqlite:/x.db',
        '--admin-port',
        '9090',
        '--admin-host',
        '0.0.0.0',
        '--ready-timeout',
        '250',
        '--grace',
        '2.5',
      ],
      {},
      '/work',
    );
    expect(args).to.deep.include({ adminPort: 9090, adminHost: '0.0.0.0', readyTimeout: 250, grace: 2.5 });
    expect(parseArguments(['serve', 'sqlite:/x.db'], {}, '/work')).not.to.have.any.keys(
      'adminPort',
      'adminHost',
      'readyTimeout',
      'grace',
    );
  });

  it('refuses bad values in one line naming the option', () => {
    expect(mistake(['serve', 'sqlite:/x.db', '--admin-port', '70000'])).to.equal(
      '--admin-port must be a number from 0 to 65535; got "70000"',
    );
    expect(mistake(['serve', 'sqlite:/x.db', '--admin-port', 'x'])).to.equal(
      '--admin-port must be a number from 0 to 65535; got "x"',
    );
    expect(mistake(['serve', 'sqlite:/x.db', '--grace=-1'])).to.equal(
      '--grace must be a number of seconds from 0 to 3600; got "-1"',
    );
    expect(mistake(['serve', 'sqlite:/x.db', '--ready-timeout', '0'])).to.equal(
      '--ready-timeout must be a whole number of milliseconds, 1 or more; got "0"',
    );
    expect(mistake(['serve', 'sqlite:/x.db', '--admin-host', ''])).to.equal('--admin-host must not be empty');
    expect(mistake(['token', '--role', 'r', '--admin-port', '9090'])).to.equal(
      '--admin-port is an option of colapi serve, not of colapi token',
    );
  });

  it('reads grace from the configuration file, checked', () => {
    expect(validateConfig({ grace: 10 }, 'c.json')).to.deep.equal({ grace: 10 });
    expect(() => validateConfig({ grace: '10' }, 'c.json')).to.throw(
      ConfigError,
      'c.json: grace: must be a number of seconds from 0 to 3600, not "10"',
    );
    expect(() => validateConfig({ grace: -1 }, 'c.json')).to.throw(ConfigError, 'grace: must be a number of seconds');
  });
});

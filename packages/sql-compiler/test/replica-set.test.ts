import { expect } from 'chai';
import type { Knex } from 'knex';
import { connect, sqlite, type Dialect } from '../src/index.js';
import { ReplicaSet, type ReplicaChange } from '../src/replica-set.js';

/** Replicas whose lag the test scripts: a number is a lag in ms, an Error a failed check. */
function scripted(answers: Map<Knex, (number | Error)[]>): Dialect {
  return {
    ...sqlite,
    async replicaLag(knex: Knex) {
      const next = answers.get(knex)!.shift() ?? 0;
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

const pool = (name: string) => ({ name, destroy: async () => undefined }) as unknown as Knex;

describe('ReplicaSet', () => {
  const sets: ReplicaSet[] = [];
  afterEach(async () => {
    for (const s of sets.splice(0)) await s.destroy();
  });
  const make = (answers: Map<Knex, (number | Error)[]>, changes: ReplicaChange[] = []) => {
    const set = new ReplicaSet(
      scripted(answers),
      [...answers.keys()].map((knex, i) => ({ url: `postgres://u:secret@r${i}/db`, knex })),
      {
        maxLag: 1000,
        checkInterval: 60_000,
        onChange: (c) => changes.push(c),
      },
    );
    sets.push(set);
    return set;
  };

  it('serves nothing before the first check, then takes the serving replicas in turn', async () => {
    const [a, b] = [pool('a'), pool('b')];
    const set = make(
      new Map([
        [a, [0, 0]],
        [b, [0, 0]],
      ]),
    );
    await set.check();
    expect([set.pick(), set.pick(), set.pick()]).to.deep.equal([a, b, a]);
  });

  it('takes out a replica whose check fails at once, and brings it back on the next good check', async () => {
    const a = pool('a');
    const changes: ReplicaChange[] = [];
    const set = make(new Map([[a, [0, 0, new Error('connection refused'), 0]]]), changes);
    await set.check();
    await set.check();
    expect(set.pick()).to.equal(a);
    await set.check();
    expect(set.pick()).to.equal(undefined);
    expect(set.state()[0]).to.include({ serving: false, replica: 'postgres://u:***@r0/db' });
    expect(set.state()[0]!.reason).to.match(/connection refused/);
    await set.check();
    expect(set.pick()).to.equal(a);
    expect(changes.map((c) => c.serving)).to.deep.equal([true, false, true]);
  });

  it('keeps a serving replica through one check beyond maxLag, and takes it out on the second', async () => {
    const a = pool('a');
    const set = make(new Map([[a, [0, 5000, 0, 5000, 5000, 0]]]));
    await set.check();
    await set.check();
    expect(set.pick(), 'one spike').to.equal(a);
    await set.check();
    await set.check();
    await set.check();
    expect(set.pick(), 'two in a row').to.equal(undefined);
    expect(set.state()[0]!.reason).to.match(/5000 ms behind/);
    await set.check();
    expect(set.pick()).to.equal(a);
  });

  it('does not let a replica that lags at its first check serve', async () => {
    const a = pool('a');
    const set = make(new Map([[a, [5000]]]));
    await set.check();
    expect(set.pick()).to.equal(undefined);
  });

  it('takes out a replica a read failed on until a check finds it well', async () => {
    const a = pool('a');
    const set = make(new Map([[a, [0, 0]]]));
    await set.check();
    set.failed(a, new Error('Connection terminated unexpectedly'));
    expect(set.pick()).to.equal(undefined);
    await set.check();
    expect(set.pick()).to.equal(a);
  });

  it('refuses a dialect that has no replicas', () => {
    expect(() => new ReplicaSet(sqlite, [])).to.throw(/cannot serve reads from replicas/);
  });
});

describe('connect() with replicas', () => {
  it('refuses replicas for SQLite, and a replica of another database, before opening any pool', () => {
    expect(() => connect('sqlite::memory:', { replicas: ['sqlite:/tmp/r.sqlite'] })).to.throw(
      /sqlite cannot serve reads from replicas/,
    );
    expect(() => connect('postgres://u:secret@h/db', { replicas: ['mysql://u:secret@h/db'] })).to.throw(
      'the replica mysql://u:***@h/db is not a postgres database',
    );
  });
});

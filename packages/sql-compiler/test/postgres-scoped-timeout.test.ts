import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { connect } from '../src/index.js';
import { scopeStatementTimeout, type PgClient } from '../src/dialects/postgres-scoped-timeout.js';

type Callback = (error: unknown, result?: unknown) => void;

/**
 * A stand-in for node-postgres's Client: what goes on the wire (`send`), what the server answers (`answer`),
 * one answer per turn of the event loop, in order, with the server's transaction status as it follows them.
 */
function fakeClient(options: { pipeline: boolean; failing?: Record<string, string>; status?: boolean }) {
  const events: string[] = [];
  const wire: { text: string; callback: Callback }[] = [];
  const queue: { text: string; callback: Callback }[] = [];
  let status = 'I';
  const answer = () => {
    const { text, callback } = wire.shift()!;
    events.push(`answer ${text}`);
    const error = options.failing?.[text];
    if (/\b(begin|start transaction)\b/i.test(text)) status = 'T';
    else if (text === 'COMMIT') status = 'I';
    else if (error && status === 'T') status = 'E';
    callback(error ? new Error(error) : null, { command: text.split(' ')[0], rows: [{ text }] });
    if (!options.pipeline && queue.length) send(queue.shift()!);
  };
  const send = (q: { text: string; callback: Callback }) => {
    events.push(`send ${q.text}`);
    wire.push(q);
    setImmediate(answer);
  };
  const client: PgClient & { pipeline: boolean } = {
    pipeline: options.pipeline,
    query(config: unknown, ...rest: unknown[]) {
      const text = typeof config === 'string' ? config : (config as { text: string }).text;
      let callback = rest.find((r) => typeof r === 'function') as Callback | undefined;
      let promise: Promise<unknown> | undefined;
      if (!callback) promise = new Promise((resolve, reject) => (callback = (e, r) => (e ? reject(e) : resolve(r))));
      const q = { text, callback: callback! };
      if (options.pipeline || wire.length === 0) send(q);
      else queue.push(q);
      return promise;
    },
    ...(options.status === false ? {} : { getTransactionStatus: () => status }),
  };
  return { client, events };
}

const call = (client: PgClient, config: unknown) =>
  new Promise<{ error: unknown; result: unknown }>((resolve) =>
    client.query(config, (error: unknown, result: unknown) => resolve({ error, result })),
  );

const SCOPE = 'BEGIN; SET LOCAL statement_timeout = 250';

describe('PostgreSQL behind a transaction pooler: statement_timeout scoped to a transaction', () => {
  it('a statement outside a transaction runs in one of its own, written at once and answered after its COMMIT', async () => {
    const { client, events } = fakeClient({ pipeline: true });
    scopeStatementTimeout(client, 250);
    const { error, result } = await call(client, { text: 'select $1', values: [1] });
    events.push('answered');
    expect(error).to.equal(null);
    expect(result).to.deep.equal({ command: 'select', rows: [{ text: 'select $1' }] });
    expect(events).to.deep.equal([
      `send ${SCOPE}`,
      'send select $1',
      'send COMMIT',
      `answer ${SCOPE}`,
      'answer select $1',
      'answer COMMIT',
      'answered',
    ]);
  });

  it('without pipelining, the three follow one another', async () => {
    const { client, events } = fakeClient({ pipeline: false });
    scopeStatementTimeout(client, 250);
    await call(client, 'select 1');
    expect(events).to.deep.equal([
      `send ${SCOPE}`,
      `answer ${SCOPE}`,
      'send select 1',
      'answer select 1',
      'send COMMIT',
      'answer COMMIT',
    ]);
  });

  it("a failing statement is the caller's error, and its transaction is still closed", async () => {
    const { client, events } = fakeClient({
      pipeline: true,
      failing: { 'select pg_sleep(1)': 'canceling statement due to statement timeout' },
    });
    scopeStatementTimeout(client, 250);
    const { error } = await call(client, 'select pg_sleep(1)');
    expect(String(error)).to.match(/statement timeout/);
    expect(events.at(-1)).to.equal('answer COMMIT');
    expect(client.getTransactionStatus!()).to.equal('I');
  });

  it('a COMMIT that fails fails the statement (a write outside a transaction is not reported done before it)', async () => {
    const { client } = fakeClient({ pipeline: true, failing: { COMMIT: 'deferred constraint violated' } });
    scopeStatementTimeout(client, 250);
    const { error } = await call(client, 'insert into t values (1)');
    expect(String(error)).to.match(/deferred constraint/);
  });

  it("answers node-postgres's promise form too", async () => {
    const { client } = fakeClient({ pipeline: true, failing: { 'select 2': 'boom' } });
    scopeStatementTimeout(client, 250);
    expect(await client.query('select 1')).to.deep.include({ command: 'select' });
    let caught: unknown;
    await (client.query('select 2') as Promise<unknown>).catch((e: unknown) => (caught = e));
    expect(String(caught)).to.match(/boom/);
  });

  for (const begin of [
    'BEGIN;',
    'BEGIN TRANSACTION ISOLATION LEVEL SERIALIZABLE;',
    'start transaction read only',
    '/* tagged */ begin',
  ]) {
    it(`a transaction's own BEGIN carries the setting, no extra round trip: ${begin}`, async () => {
      const { client, events } = fakeClient({ pipeline: true });
      scopeStatementTimeout(client, 250);
      await call(client, { text: begin, values: [] });
      await call(client, { text: 'update t set a = $1', values: [1] });
      await call(client, 'SAVEPOINT trx2');
      await call(client, 'COMMIT;');
      const sent = events.filter((e) => e.startsWith('send ')).map((e) => e.slice(5));
      expect(sent).to.deep.equal([
        `${begin.replace(/;$/, '')}; SET LOCAL statement_timeout = 250`,
        'update t set a = $1',
        'SAVEPOINT trx2',
        'COMMIT;',
      ]);
    });
  }

  it('where the driver cannot tell the transaction status, the texts sent tell it', async () => {
    const { client, events } = fakeClient({ pipeline: true, status: false });
    scopeStatementTimeout(client, 250);
    for (const text of ['BEGIN;', 'select 1', 'ROLLBACK TO SAVEPOINT trx2', 'select 2', 'COMMIT;', 'select 3'])
      await call(client, text);
    const sent = events.filter((e) => e.startsWith('send ')).map((e) => e.slice(5));
    expect(sent).to.deep.equal([
      SCOPE,
      'select 1',
      'ROLLBACK TO SAVEPOINT trx2',
      'select 2',
      'COMMIT;',
      SCOPE,
      'select 3',
      'COMMIT',
    ]);
  });

  it('statements PostgreSQL refuses inside a transaction, and stray transaction control, are sent as they are', async () => {
    const { client, events } = fakeClient({ pipeline: true });
    scopeStatementTimeout(client, 250);
    const texts = [
      'create database x',
      'DROP DATABASE IF EXISTS x WITH (FORCE)',
      'vacuum analyze t',
      'create index concurrently i on t (a)',
      'COMMIT',
      'rollback',
    ];
    for (const text of texts) await call(client, text);
    expect(events.filter((e) => e.startsWith('send ')).map((e) => e.slice(5))).to.deep.equal(texts);
  });

  it('refuses a timeout that is not a positive whole number (it is written into SQL)', () => {
    for (const ms of [0, -1, 1.5, Number.NaN, 2 ** 60])
      expect(() => scopeStatementTimeout(fakeClient({ pipeline: true }).client, ms), String(ms)).to.throw(
        /statementTimeout/,
      );
  });
});

/** The startup packet node-postgres sends to a stand-in server: its parameters. */
async function startupParameters(url: string, options: Parameters<typeof connect>[1]): Promise<Record<string, string>> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const packet = new Promise<Buffer>((resolve) =>
    server.once('connection', (socket: Socket) => {
      let data = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        data = Buffer.concat([data, chunk]);
        if (data.length >= 4 && data.length >= data.readInt32BE(0)) {
          resolve(data.subarray(8, data.readInt32BE(0)));
          socket.destroy();
        }
      });
    }),
  );
  // The stand-in hangs up after the packet: knex's log of the failed acquire is noise here.
  const log = { warn() {}, error() {}, debug() {}, deprecate() {} };
  const db = connect(url.replace('PORT', String(port)), {
    ...options,
    log,
    pool: { min: 0, max: 1 },
    acquireConnectionTimeout: 2000,
  });
  try {
    const [body] = await Promise.all([packet, db.knex.raw('select 1').catch(() => undefined)]);
    const fields = body
      .toString('utf8')
      .split('\0')
      .filter((f) => f !== '');
    return Object.fromEntries(Array.from({ length: fields.length / 2 }, (_, i) => [fields[2 * i], fields[2 * i + 1]]));
  } finally {
    await db.knex.destroy();
    server.close();
  }
}

describe('PostgreSQL: what a connection asks for at startup', () => {
  // A pooler refuses, or drops, a startup parameter it does not know. PgBouncer keeps client_encoding (which
  // pg-protocol always sends as UTF8) and application_name (from PGAPPNAME, when set) per client, and sets them
  // on whichever server connection serves it.
  it('with prepared_statements=false and a statement timeout: only the user, the database and the encoding', async () => {
    const params = await startupParameters('postgres://app@127.0.0.1:PORT/shop?prepared_statements=false', {
      statementTimeout: 250,
    });
    const { application_name: _, ...rest } = params;
    expect(rest).to.deep.equal({ user: 'app', database: 'shop', client_encoding: 'UTF8' });
  });

  it('directly: statement_timeout is a startup parameter, which costs no statement', async () => {
    const params = await startupParameters('postgres://app@127.0.0.1:PORT/shop', { statementTimeout: 250 });
    expect(params).to.include({ user: 'app', database: 'shop', statement_timeout: '250' });
  });
});

import { expect } from 'chai';
import { mysql, postgres, sqlite } from '../src/index.js';

/** Errors of a connection or a lock that the drivers raise without the codes the tables map. */
describe('classifyError: lost connections and lock conflicts', () => {
  it('PostgreSQL: node-postgres errors of a dropped connection, which carry no SQLSTATE, are unavailable', () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'select 1 - Connection terminated',
      'COMMIT; - Client has encountered a connection error and is not queryable',
      'Client was closed and is not queryable',
    ]) {
      expect(postgres.classifyError(new Error(message)), message).to.equal('unavailable');
    }
    expect(postgres.classifyError(new Error('something else'))).to.equal(undefined);
  });

  it("PostgreSQL: a pooler's own failures (PgBouncer's protocol_violation) and refused connections are unavailable", () => {
    for (const code of ['08P01', '08001', '08004', '08006']) {
      expect(postgres.classifyError(Object.assign(new Error('server conn crashed?'), { code })), code).to.equal(
        'unavailable',
      );
    }
  });

  it("MySQL: mysql2's fatal errors (a killed or closed connection) are unavailable", () => {
    const closed = Object.assign(new Error("Can't add new command when connection is in closed state"), {
      fatal: true,
    });
    expect(mysql.classifyError(closed)).to.equal('unavailable');
    expect(mysql.classifyError(new Error("Can't add new command"))).to.equal(undefined);
  });

  it('SQLite: extended busy and locked codes are serialization failures, retried then 503', () => {
    for (const code of [
      'SQLITE_BUSY',
      'SQLITE_BUSY_SNAPSHOT',
      'SQLITE_BUSY_RECOVERY',
      'SQLITE_LOCKED',
      'SQLITE_LOCKED_SHAREDCACHE',
    ]) {
      expect(sqlite.classifyError(Object.assign(new Error(code), { code })), code).to.equal('serialization');
    }
  });
});

describe('classifyError: a materialized view not populated', () => {
  it('PostgreSQL: SQLSTATE 55000 raised where a scan opens the view is not-populated, other 55000 errors are not', () => {
    const unpopulated = Object.assign(new Error('materialized view "top_books" has not been populated'), {
      code: '55000',
      routine: 'ExecOpenScanRelation',
    });
    expect(postgres.classifyError(unpopulated)).to.equal('not-populated');
    // A server answering in another language still names the routine.
    expect(postgres.classifyError({ ...unpopulated, message: 'la vue matérialisée n’a pas été remplie' })).to.equal(
      'not-populated',
    );
    const other = Object.assign(new Error('currval of sequence "s" is not yet defined in this session'), {
      code: '55000',
      routine: 'currval_oid',
    });
    expect(postgres.classifyError(other)).to.equal(undefined);
  });
});

describe('classifyError: privileges the connecting role lacks', () => {
  it('PostgreSQL insufficient_privilege and MySQL table and column access denied are permission-denied', () => {
    const pg = Object.assign(new Error('permission denied for table book_tag'), { code: '42501' });
    expect(postgres.classifyError(pg)).to.equal('permission-denied');
    for (const errno of [1142, 1143]) {
      const denied = Object.assign(new Error('INSERT command denied to user'), {
        errno,
        code: 'ER_TABLEACCESS_DENIED_ERROR',
      });
      expect(mysql.classifyError(denied), String(errno)).to.equal('permission-denied');
    }
  });
});

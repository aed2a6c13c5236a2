import type { Dialect } from '@colapi/sql-compiler';
import type { Knex } from 'knex';

/**
 * Whether the database answers an INSERT with the row it wrote (RETURNING), so that a bare create is one
 * statement: the dialect says so for all its servers, or the server says so when asked at start (MariaDB
 * 10.5 and later; MySQL never). Until a server has answered, and while asking it fails (the database is
 * down at start), creates insert and then read, which every server does; a failed ask is made again at the
 * next create.
 */
export class InsertedRows {
  private returns: boolean;
  /** Nothing left to ask: the dialect knows, or the server answered. */
  private settled: boolean;
  private asking = false;
  /** Settles once the ask made at start is over, whatever it found. Never rejects. */
  readonly ready: Promise<void>;

  constructor(
    private readonly dialect: Dialect,
    private readonly knex: Knex,
  ) {
    this.returns = dialect.returning;
    this.settled = dialect.returning || !dialect.returnsInsertedRows;
    this.ready = this.settled ? Promise.resolve() : this.ask();
  }

  /** True when a bare create may be one INSERT … RETURNING. */
  returned(): boolean {
    if (!this.settled && !this.asking) void this.ask();
    return this.returns;
  }

  private ask(): Promise<void> {
    this.asking = true;
    return this.dialect.returnsInsertedRows!(this.knex).then(
      (answer) => {
        this.returns = answer;
        this.settled = true;
      },
      () => {
        this.asking = false;
      },
    );
  }
}

import { expect } from 'chai';
import { defineModel, Registry } from '@colapi/schema';
import type { Route } from '@colapi/wire-format';
import type { Database, DatabaseErrorKind, ErrorPlace } from '@colapi/sql-compiler';
import { ApiError, databaseError } from '../src/index.js';
import { classifiedError, isPoolTimeout, poolBusy } from '../src/database-errors.js';

describe('databaseError', () => {
  const KINDS: [DatabaseErrorKind, number, string, string, string?][] = [
    ['unique-violation', 409, 'Conflict', 'a resource with the same unique value exists already', 'unique-violation'],
    ['not-null-violation', 400, 'Bad Request', 'a required field is missing or null'],
    ['foreign-key-missing', 404, 'Not Found', 'a related resource does not exist'],
    [
      'foreign-key-referenced',
      409,
      'Conflict',
      'the resource is still referenced by other resources',
      'still-referenced',
    ],
    ['check-violation', 400, 'Bad Request', 'a value breaks a constraint of the database'],
    ['invalid-value', 400, 'Bad Request', 'a value is not valid for its field'],
    ['out-of-range', 400, 'Bad Request', 'a number is out of the range its field holds'],
    ['timeout', 503, 'Service Unavailable', 'the query took too long and was cancelled'],
    ['serialization', 503, 'Service Unavailable', 'the request conflicted with a concurrent one; retry it'],
    ['unavailable', 503, 'Service Unavailable', 'the database cannot be reached'],
    ['permission-denied', 403, 'Forbidden', 'the database does not allow this to the role the server connects as'],
    [
      'not-populated',
      503,
      'Service Unavailable',
      'a materialized view this request reads has not been populated: it is served once REFRESH MATERIALIZED VIEW has filled it',
    ],
  ];
  for (const [kind, status, title, detail, code] of KINDS) {
    it(`answers ${kind} with ${status}`, () => {
      const e = databaseError(kind);
      expect(e).to.be.instanceOf(ApiError);
      expect({
        status: e.status,
        title: e.title,
        detail: e.detail,
        code: e.code,
        source: e.source,
        headers: e.headers,
      }).to.deep.equal({
        status,
        title,
        detail,
        code,
        source: undefined,
        headers: undefined,
      });
    });
  }

  it('names the fields of a unique violation, one or together, with the pointer given', () => {
    expect(
      databaseError('unique-violation', { owner: 'person', names: ['email'], pointer: '/data/attributes/email' }),
    ).to.deep.include({
      status: 409,
      detail: '"email" must be unique: another person has the same value',
      source: { pointer: '/data/attributes/email' },
      code: 'unique-violation',
    });
    const together = databaseError('unique-violation', { owner: 'person', names: ['first', 'last'] });
    expect(together.detail).to.equal('"first", "last" must be unique together: another person has the same value');
    expect(together.source).to.equal(undefined);
  });

  it('names the field of a number out of range', () => {
    expect(
      databaseError('out-of-range', { owner: 'person', names: ['age'], pointer: '/data/attributes/age' }),
    ).to.deep.include({
      status: 400,
      detail: '"age": the number is out of the range the field holds',
      source: { pointer: '/data/attributes/age' },
    });
  });

  it('names the field of a missing value: its own, the key, or one of another collection', () => {
    expect(
      databaseError('not-null-violation', {
        owner: 'person',
        names: ['name'],
        own: true,
        pointer: '/data/attributes/name',
      }),
    ).to.deep.include({
      status: 400,
      detail: '"name" is required: it cannot be null and has no default',
      source: { pointer: '/data/attributes/name' },
    });
    expect(
      databaseError('not-null-violation', {
        owner: 'artist',
        names: ['ArtistId'],
        own: true,
        key: true,
        pointer: '/data/id',
      }).detail,
    ).to.equal('"ArtistId" is required: artist gives no id of its own, so a create must send one');
    expect(databaseError('not-null-violation', { owner: 'article', names: ['author'] }).detail).to.equal(
      '"author" of article cannot be null',
    );
  });

  it('names the field and the constraint of a failed check, or the constraint alone', () => {
    expect(
      databaseError(
        'check-violation',
        { owner: 'item', names: ['price'], own: true, pointer: '/data/attributes/price' },
        'price_positive',
      ),
    ).to.deep.include({
      status: 400,
      detail: '"price" breaks the check "price_positive" of the database',
      source: { pointer: '/data/attributes/price' },
    });
    expect(
      databaseError('check-violation', { owner: 'item', names: ['low', 'high'], own: true }, 'ordered').detail,
    ).to.equal('"low", "high" break the check "ordered" of the database together');
    expect(databaseError('check-violation', undefined, 'ordered').detail).to.equal(
      'a value breaks the check "ordered" of the database',
    );
  });

  it('keeps the generic detail of other kinds, with the pointer', () => {
    expect(
      databaseError('invalid-value', { owner: 'person', names: ['name'], pointer: '/data/attributes/name' }),
    ).to.deep.include({
      detail: 'a value is not valid for its field',
      source: { pointer: '/data/attributes/name' },
    });
  });
});

describe('pool saturation', () => {
  it('is 503 with Retry-After', () => {
    expect(poolBusy()).to.deep.include({
      status: 503,
      title: 'Service Unavailable',
      detail: 'every database connection stayed busy; retry the request in a moment',
      headers: { 'retry-after': '1' },
    });
  });

  it("is recognised by knex's timeout error only", () => {
    expect(
      isPoolTimeout(Object.assign(new Error('Knex: Timeout acquiring a connection'), { name: 'KnexTimeoutError' })),
    ).to.equal(true);
    for (const e of [
      new Error('Knex: Timeout acquiring a connection'),
      { name: 'TimeoutError' },
      null,
      undefined,
      'KnexTimeoutError',
    ]) {
      expect(isPoolTimeout(e), String(e)).to.equal(false);
    }
  });
});

describe('classifiedError', () => {
  const person = defineModel({
    name: 'Person',
    table: 'person',
    columns: [
      { name: 'id', type: 'integer', nullable: false, generated: true },
      { name: 'email', type: 'string', nullable: false },
      { name: 'first', type: 'string', nullable: true },
      { name: 'last', type: 'string', nullable: true },
      { name: 'team_id', type: 'integer', nullable: true },
    ],
    relationships: [
      {
        name: 'team',
        cardinality: 'one',
        target: 'Team',
        join: { kind: 'belongs-to', ownColumn: 'team_id', targetColumn: 'id' },
      },
    ],
  });
  const team = defineModel({
    name: 'Team',
    table: 'team',
    columns: [
      { name: 'id', type: 'integer', nullable: false, generated: true },
      { name: 'title', type: 'string', nullable: false },
    ],
  });
  // Two models of one table: the database's table names neither for sure.
  const audit = defineModel({
    name: 'Audit',
    table: 'log',
    columns: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'at', type: 'integer', nullable: true },
    ],
  });
  const auditView = defineModel({
    name: 'AuditView',
    table: 'log',
    columns: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'at', type: 'integer', nullable: true },
    ],
  });
  const registry = new Registry([
    { model: person, options: { name: 'people' } },
    { model: team, options: { name: 'teams' } },
    { model: audit },
    { model: auditView, options: { name: 'audit_view' } },
  ]);
  const people: Route = { collection: 'people' };
  const DRIVER_ERROR = new Error('duplicate key value violates unique constraint "person_email_key"');

  /** A database whose dialect classifies every error as `kind` and places it at `place`; it never connects. */
  function database(kind: DatabaseErrorKind | undefined, place?: ErrorPlace | Error | null): Database {
    const dialect: Record<string, unknown> = { classifyError: () => kind };
    if (place !== null) {
      dialect.errorPlace = async () => {
        if (place instanceof Error) throw place;
        return place;
      };
    }
    return { knex: undefined, dialect } as unknown as Database;
  }
  const classify = (kind: DatabaseErrorKind | undefined, place?: ErrorPlace | Error | null, route: Route = people) =>
    classifiedError(database(kind, place), registry, route, DRIVER_ERROR);

  it('is none for an error the dialect does not classify', async () => {
    expect(await classify(undefined, { columns: ['email'] })).to.equal(undefined);
  });

  it("points at the attribute of the request's own resource", async () => {
    expect(await classify('unique-violation', { table: 'person', columns: ['email'] })).to.deep.include({
      status: 409,
      detail: '"email" must be unique: another people has the same value',
      source: { pointer: '/data/attributes/email' },
      code: 'unique-violation',
    });
  });

  it("takes the request's own collection when the database names no table", async () => {
    expect((await classify('out-of-range', { columns: ['first'] }))?.source).to.deep.equal({
      pointer: '/data/attributes/first',
    });
  });

  it('points at data.id for the key and at the relationship for a foreign key', async () => {
    expect((await classify('unique-violation', { table: 'person', columns: ['id'] }))?.source).to.deep.equal({
      pointer: '/data/id',
    });
    expect((await classify('out-of-range', { table: 'person', columns: ['team_id'] }))?.source).to.deep.equal({
      pointer: '/data/relationships/team',
    });
  });

  it('names several columns together without a pointer', async () => {
    const e = await classify('unique-violation', { table: 'person', columns: ['first', 'last'] });
    expect(e?.detail).to.equal('"first", "last" must be unique together: another people has the same value');
    expect(e?.source).to.equal(undefined);
  });

  it("names the fields of another table's one model, by its collection, without a pointer", async () => {
    const e = await classify('unique-violation', { table: 'team', columns: ['title'] });
    expect(e?.detail).to.equal('"title" must be unique: another teams has the same value');
    expect(e?.source).to.equal(undefined);
  });

  const GENERIC = 'a resource with the same unique value exists already';
  const UNPLACED: [string, ErrorPlace | Error | null | undefined][] = [
    ['the dialect cannot place errors', null],
    ['the dialect finds no place', undefined],
    ['placing the error fails', new Error('information_schema is not readable')],
    ['a column the model does not have', { table: 'person', columns: ['password'] }],
    ['no column', { table: 'person', columns: [] }],
    ['a table of no model', { table: 'secret_table', columns: ['email'] }],
    ['a table of two models', { table: 'log', columns: ['at'] }],
  ];
  for (const [why, place] of UNPLACED) {
    it(`keeps the generic detail when ${why}`, async () => {
      const e = await classify('unique-violation', place);
      expect(e).to.deep.include({ status: 409, detail: GENERIC, code: 'unique-violation' });
      expect(e?.source).to.equal(undefined);
    });
  }

  it('names a missing foreign key with its relationship; on the relationship endpoint it points at /data', async () => {
    const e = await classify('not-null-violation', { table: 'person', columns: ['team_id'] });
    expect(e).to.deep.include({
      status: 400,
      detail: '"team_id" (the relationship "team") is required: it cannot be null and has no default',
      source: { pointer: '/data/relationships/team' },
    });
    const linkage: Route = { collection: 'people', id: '1', relation: 'team', relationships: true };
    expect(
      (await classify('not-null-violation', { table: 'person', columns: ['team_id'] }, linkage))?.source,
    ).to.deep.equal({
      pointer: '/data',
    });
    // Another field on that endpoint is no member of its body.
    expect((await classify('not-null-violation', { table: 'person', columns: ['email'] }, linkage))?.source).to.equal(
      undefined,
    );
  });

  it('names the key a create must send, at data.id', async () => {
    expect(await classify('not-null-violation', { table: 'person', columns: ['id'] })).to.deep.include({
      detail: '"id" is required: people gives no id of its own, so a create must send one',
      source: { pointer: '/data/id' },
    });
  });

  it("names a failed check's constraint with its fields, not with fields the collection lacks", async () => {
    expect(
      await classify('check-violation', { table: 'person', columns: ['email'], constraint: 'email_has_at' }),
    ).to.deep.include({
      detail: '"email" breaks the check "email_has_at" of the database',
      source: { pointer: '/data/attributes/email' },
    });
    expect(
      (await classify('check-violation', { table: 'person', columns: ['password'], constraint: 'strong_password' }))
        ?.detail,
    ).to.equal('a value breaks a constraint of the database');
    expect((await classify('check-violation', { columns: [], constraint: 'positive' }))?.detail).to.equal(
      'a value breaks the check "positive" of the database',
    );
    expect(
      (await classify('check-violation', { table: 'team', columns: ['title'], constraint: 'titled' }))?.detail,
    ).to.equal('"title" breaks the check "titled" of the database (in teams)');
  });

  it('answers the kind of every classified error, placed or not', async () => {
    expect(await classify('timeout', null)).to.deep.include({
      status: 503,
      detail: 'the query took too long and was cancelled',
    });
    expect(await classify('foreign-key-referenced', { table: 'person', columns: ['id'] })).to.deep.include({
      status: 409,
      detail: 'the resource is still referenced by other resources',
      code: 'still-referenced',
      source: { pointer: '/data/id' },
    });
  });
});

describe('classifiedError: only the fields a collection shows', () => {
  const team = defineModel({
    name: 'Team',
    table: 'team',
    columns: [
      { name: 'id', type: 'integer', nullable: false, generated: true },
      { name: 'title', type: 'string', nullable: false },
      { name: 'secret', type: 'string', nullable: true },
    ],
  });
  const user = defineModel({
    name: 'User',
    table: 'app_user',
    columns: [
      { name: 'id', type: 'integer', nullable: false, generated: true },
      { name: 'email', type: 'string', nullable: false },
      { name: 'api_token', type: 'string', nullable: true },
      { name: 'team_id', type: 'integer', nullable: true },
      { name: 'mentor_id', type: 'integer', nullable: true },
    ],
    relationships: [
      {
        name: 'team',
        cardinality: 'one',
        target: 'Team',
        join: { kind: 'belongs-to', ownColumn: 'team_id', targetColumn: 'id' },
      },
      {
        name: 'mentor',
        cardinality: 'one',
        target: 'User',
        join: { kind: 'belongs-to', ownColumn: 'mentor_id', targetColumn: 'id' },
      },
    ],
  });
  const registry = new Registry([
    // The foreign key team_id is hidden, its relationship shown; mentor_id is shown, its relationship hidden.
    { model: user, options: { name: 'users', exclude: ['api_token', 'team_id', 'mentor'] } },
    { model: user, options: { name: 'user_names', only: ['email'] } },
    // The first collection of team hides secret; a second one shows it.
    { model: team, options: { name: 'teams', exclude: ['secret'] } },
    { model: team, options: { name: 'team_secrets' } },
  ]);
  const GENERIC = 'a resource with the same unique value exists already';
  const database = (place: ErrorPlace): Database =>
    ({
      knex: undefined,
      dialect: { classifyError: () => 'unique-violation', errorPlace: async () => place },
    }) as unknown as Database;
  const classify = (collection: string, place: ErrorPlace) =>
    classifiedError(database(place), registry, { collection }, new Error('duplicate key'));

  const HIDDEN: [string, string, ErrorPlace][] = [
    ['an excluded column', 'users', { table: 'app_user', columns: ['api_token'] }],
    ['an excluded column, the database naming no table', 'users', { columns: ['api_token'] }],
    ['an excluded column among shown ones', 'users', { table: 'app_user', columns: ['email', 'api_token'] }],
    ['a column outside `only`', 'user_names', { table: 'app_user', columns: ['api_token'] }],
    ['a foreign key outside `only`, its relationship too', 'user_names', { table: 'app_user', columns: ['team_id'] }],
    [
      'a column of another table that no collection of its model shows',
      'teams',
      { table: 'app_user', columns: ['api_token'] },
    ],
  ];
  for (const [why, collection, place] of HIDDEN) {
    it(`keeps the generic detail, without pointer, for ${why}`, async () => {
      const e = await classify(collection, place);
      expect(e).to.deep.include({ status: 409, title: 'Conflict', detail: GENERIC, code: 'unique-violation' });
      expect(e?.source).to.equal(undefined);
      expect(e?.detail).to.not.contain('api_token');
    });
  }

  it('still names and points at a shown column', async () => {
    expect(await classify('users', { table: 'app_user', columns: ['email'] })).to.deep.include({
      detail: '"email" must be unique: another users has the same value',
      source: { pointer: '/data/attributes/email' },
    });
    expect((await classify('user_names', { table: 'app_user', columns: ['id'] }))?.source).to.deep.equal({
      pointer: '/data/id',
    });
  });

  it('names a hidden foreign key by the relationship the collection shows', async () => {
    expect(await classify('users', { table: 'app_user', columns: ['team_id'] })).to.deep.include({
      detail: '"team" must be unique: another users has the same value',
      source: { pointer: '/data/relationships/team' },
    });
  });

  it('names a shown foreign key whose relationship is hidden, without pointer (it is no attribute)', async () => {
    const e = await classify('users', { table: 'app_user', columns: ['mentor_id'] });
    expect(e?.detail).to.equal('"mentor_id" must be unique: another users has the same value');
    expect(e?.source).to.equal(undefined);
  });

  it('names the field of another table by a collection of its model that shows it', async () => {
    const e = await classify('users', { table: 'team', columns: ['secret'] });
    expect(e?.detail).to.equal('"secret" must be unique: another team_secrets has the same value');
    expect(e?.source).to.equal(undefined);
    expect((await classify('users', { table: 'team', columns: ['title'] }))?.detail).to.equal(
      '"title" must be unique: another teams has the same value',
    );
  });
});

describe('classifiedError: renamed columns', () => {
  // The database names columns as SQL knows them; `column` gives a field's SQL name. Here two are swapped.
  const tag = defineModel({
    name: 'Tag',
    table: 'tag',
    columns: [
      { name: 'id', type: 'integer', nullable: false, generated: true },
      { name: 'label', type: 'string', nullable: false, column: 'name' },
      { name: 'name', type: 'string', nullable: true, column: 'label' },
      { name: 'secret', type: 'string', nullable: true, column: 'code' },
    ],
  });
  const note = defineModel({
    name: 'Note',
    table: 'note',
    columns: [{ name: 'id', type: 'integer', nullable: false, generated: true }],
  });
  const registry = new Registry([
    { model: tag, options: { name: 'tags', exclude: ['secret'] } },
    { model: note, options: { name: 'notes' } },
  ]);
  const database = (place: ErrorPlace): Database =>
    ({
      knex: undefined,
      dialect: { classifyError: () => 'unique-violation', errorPlace: async () => place },
    }) as unknown as Database;
  const classify = (collection: string, place: ErrorPlace) =>
    classifiedError(database(place), registry, { collection }, new Error('duplicate key'));

  it('names and points at the field of a renamed column', async () => {
    expect(await classify('tags', { table: 'tag', columns: ['name'] })).to.deep.include({
      detail: '"label" must be unique: another tags has the same value',
      source: { pointer: '/data/attributes/label' },
    });
    expect((await classify('tags', { columns: ['label'] }))?.source).to.deep.equal({
      pointer: '/data/attributes/name',
    });
  });

  it("names the field of another table's renamed column, without a pointer", async () => {
    const e = await classify('notes', { table: 'tag', columns: ['label', 'name'] });
    expect(e?.detail).to.equal('"name", "label" must be unique together: another tags has the same value');
    expect(e?.source).to.equal(undefined);
  });

  it('names neither a hidden renamed column nor a field whose name only the database gives another column', async () => {
    for (const columns of [['code'], ['secret']]) {
      const e = await classify('tags', { table: 'tag', columns });
      expect(e?.detail).to.equal('a resource with the same unique value exists already');
      expect(e?.source).to.equal(undefined);
    }
  });
});

import { createRequire } from 'node:module';

/** One column of a RowDescription, as node-postgres hands it over. */
interface Field {
  readonly name: string;
  readonly dataTypeID: number;
  readonly format: string;
}

type Parser = (raw: never) => unknown;

/** The connection's side node-postgres documents: its type parsers, and `query` taking a Submittable. */
export interface PgClient {
  getTypeParser(oid: number, format?: string): Parser;
  query(query: unknown, ...rest: unknown[]): unknown;
}

/**
 * The wire a Submittable is handed (node-postgres's Connection): the messages node-postgres's own Query and
 * pg-cursor send through it, and the texts of the statements this connection has prepared.
 */
interface PgWire {
  readonly parsedStatements: Readonly<Record<string, string | undefined>>;
  readonly stream: { cork?(): void; uncork?(): void };
  bind(config: { statement: string; values: readonly unknown[]; valueMapper: (value: unknown) => unknown }): void;
  execute(config: Record<string, never>): void;
  sync(): void;
}

/** What a statement answers: its rows and the count of its command tag (undefined where it has none). */
export interface StatementAnswer {
  readonly rows: Record<string, unknown>[];
  readonly rowCount: number | undefined;
}

type Callback = (error: unknown, answer?: StatementAnswer) => void;

/**
 * How one statement's rows are built on one connection: its columns as the RowDescription gave them, each
 * column's parser, and an object with every column, copied for each row.
 */
interface RowShape {
  readonly fields: readonly Field[];
  readonly names: readonly string[];
  readonly parsers: readonly Parser[];
  readonly template: Readonly<Record<string, null>>;
}

/** Per connection, since the parsers are the connection's; per statement text, which decides the columns. */
const shapes = new WeakMap<PgClient, Map<string, RowShape>>();

/**
 * Runs a statement through the extended protocol, named (prepared once per connection, then bound and run) or
 * unnamed (`name` ''; parsed and planned for its values at each run), and calls back with its rows.
 *
 * It is node-postgres's own `Query` in all but two costs, both paid on every statement and both measured
 * (docs/performance.md, "Session 21"): the query config is not copied through property descriptors, and the
 * rows are not built from the RowDescription anew. node-postgres builds a dictionary-mode template for every
 * result and spreads it into each row; here a statement's shape is made once per connection and text and
 * checked against each RowDescription (a changed shape is made again), and rows are copies of an ordinary
 * object. Parsing, binding, the protocol and the errors stay node-postgres's: the class only answers the
 * Submittable's row and completion messages.
 */
export function queryExtended(
  client: PgClient,
  name: string,
  text: string,
  values: readonly unknown[],
  callback: Callback,
): void {
  const ExtendedQuery = extendedQueryClass();
  client.query(new ExtendedQuery(client, name, text, values, callback));
}

interface QueryBase {
  name: string | undefined;
  readonly values: readonly unknown[];
  callback: Callback;
  submit(connection: PgWire): Error | null;
}
type QueryConstructor = new (text: string, values: readonly unknown[], callback: Callback) => QueryBase;
type ExtendedQueryConstructor = new (
  client: PgClient,
  name: string,
  text: string,
  values: readonly unknown[],
  callback: Callback,
) => QueryBase;

let extendedQuery: ExtendedQueryConstructor | undefined;

/** The class, made when a PostgreSQL database is first used: pg is an optional peer. */
function extendedQueryClass(): ExtendedQueryConstructor {
  if (extendedQuery) return extendedQuery;
  const { Query, utils } = createRequire(import.meta.url)('pg') as {
    Query: QueryConstructor;
    utils: { prepareValue: (value: unknown) => unknown };
  };
  extendedQuery = class ExtendedQuery extends Query {
    readonly #client: PgClient;
    readonly #text: string;
    #shape: RowShape | undefined;
    readonly #rows: Record<string, unknown>[] = [];
    #rowCount: number | undefined;
    #failure: unknown;
    /** Called back once: a value node-postgres could not bind fails before the ReadyForQuery still to come. */
    #answered = false;

    constructor(client: PgClient, name: string, text: string, values: readonly unknown[], callback: Callback) {
      // The text form: node-postgres copies a config object through its property descriptors.
      super(text, values, callback);
      this.name = name;
      this.#client = client;
      this.#text = text;
    }

    /**
     * A named statement this connection has prepared and described is only bound and run: no Describe, so
     * the server sends no RowDescription and nobody parses one. Its columns cannot change while it exists:
     * PostgreSQL refuses to run a prepared statement whose result type changed (0A000). Anything else goes
     * through node-postgres's own submit: Parse when the connection lacks the statement, Describe always.
     */
    override submit(connection: PgWire): Error | null {
      // The shape of a named statement's rows, when this connection has run it: its Describe can be left out.
      const shape = this.name === '' ? undefined : shapes.get(this.#client)?.get(this.#text);
      if (shape === undefined || connection.parsedStatements[this.name!] !== this.#text) {
        return super.submit(connection);
      }
      this.#shape = shape;
      // As node-postgres does: the messages leave in one write.
      connection.stream.cork?.();
      try {
        try {
          connection.bind({ statement: this.name!, values: this.values, valueMapper: utils.prepareValue });
        } catch (error) {
          // Nothing of this statement was sent; the Sync's ReadyForQuery ends it on the connection.
          connection.sync();
          this.handleError(error);
          return null;
        }
        connection.execute({});
        connection.sync();
      } finally {
        connection.stream.uncork?.();
      }
      return null;
    }

    handleRowDescription(message: { fields: readonly Field[] }): void {
      this.#shape = shapeFor(this.#client, this.#text, message.fields);
    }

    handleDataRow(message: { fields: readonly unknown[] }): void {
      if (this.#failure !== undefined) return;
      const { names, parsers, template } = this.#shape!;
      const raw = message.fields;
      const row: Record<string, unknown> = { ...template };
      try {
        for (let i = 0; i < raw.length; i++) {
          const value = raw[i];
          if (value !== null) row[names[i]!] = parsers[i]!(value as never);
        }
      } catch (error) {
        // As node-postgres: the statement runs to its end, and the callback hears the parser's error.
        this.#failure = error;
        return;
      }
      this.#rows.push(row);
    }

    handleCommandComplete(message: { text: string }): void {
      this.#rowCount = commandCount(message.text);
    }

    handleError(error: unknown): void {
      if (this.#answered) return;
      this.#answered = true;
      const failure = this.#failure ?? error;
      this.#failure = undefined;
      this.callback(failure);
    }

    handleReadyForQuery(): void {
      if (this.#failure !== undefined) {
        this.handleError(this.#failure);
        return;
      }
      if (this.#answered) return;
      this.#answered = true;
      this.callback(null, { rows: this.#rows, rowCount: this.#rowCount });
    }
  };
  return extendedQuery;
}

/**
 * The statement's shape on this connection: kept while each RowDescription matches it. At most MAX_SHAPES
 * texts per connection are kept (the named ones are bounded already; unnamed texts are not), the rest made
 * for each run, as node-postgres does.
 */
function shapeFor(client: PgClient, text: string, fields: readonly Field[]): RowShape {
  let byText = shapes.get(client);
  if (!byText) shapes.set(client, (byText = new Map()));
  let shape = byText.get(text);
  if (!shape || !sameFields(shape.fields, fields)) {
    shape = shapeOf(client, fields);
    if (byText.size < MAX_SHAPES || byText.has(text)) byText.set(text, shape);
  }
  return shape;
}

const MAX_SHAPES = 2000;

function sameFields(a: readonly Field[], b: readonly Field[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.name !== y.name || x.dataTypeID !== y.dataTypeID || x.format !== y.format) return false;
  }
  return true;
}

function shapeOf(client: PgClient, fields: readonly Field[]): RowShape {
  const template: Record<string, null> = {};
  for (const { name } of fields) {
    // Defined, not assigned: a column named `__proto__` is then an own property, as node-postgres makes it.
    Object.defineProperty(template, name, { value: null, writable: true, enumerable: true, configurable: true });
  }
  const parsers = fields.map(({ dataTypeID, format }) => {
    const parse = client.getTypeParser(dataTypeID, format || 'text');
    return format === 'binary' ? (raw: never) => parse(Buffer.from(raw as unknown as Uint8Array) as never) : parse;
  });
  // The message's own array: node-postgres makes a new one for each RowDescription and never changes it.
  return { fields, names: fields.map((f) => f.name), parsers, template };
}

/**
 * The count at the end of a command tag (`SELECT 3`, `INSERT 0 1`, `UPDATE 2`), undefined for a tag without one
 * (`CREATE TABLE`): what node-postgres reads from the statements the compiler sends, without a regular expression.
 */
function commandCount(tag: string): number | undefined {
  const space = tag.lastIndexOf(' ');
  if (space < 0 || space === tag.length - 1) return undefined;
  for (let i = space + 1; i < tag.length; i++) {
    const c = tag.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  return Number(tag.slice(space + 1));
}

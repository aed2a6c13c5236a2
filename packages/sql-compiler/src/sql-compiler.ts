import type { CollectionSchema, ModelSchema, Registry, RelationshipSchema } from '@colapi/schema';
import type { ReadQuery } from '@colapi/query-ast';
import type { Knex } from 'knex';
import { Aliases } from './aliases.js';
import { compileByKeys, compileList, compileRelated, type ListSql, type ScopeSql } from './compile-select.js';
import type { Dialect } from './dialect.js';
import type { CompileContext } from './field-expression.js';
import { rowDecoder, type Row } from './row-decoder.js';

/**
 * Turns validated requests into knex query builders for one database. It runs nothing itself: the caller
 * executes the builders (inside its transaction) and decodes the rows with `decode`.
 */
export class SqlCompiler {
  constructor(
    readonly knex: Knex,
    readonly dialect: Dialect,
    readonly registry: Registry,
  ) {}

  /** A fresh compile context bound to a connection or transaction. */
  context(db: Knex = this.knex): CompileContext {
    return { knex: db, dialect: this.dialect, registry: this.registry, aliases: new Aliases() };
  }

  list(collection: CollectionSchema, query: ReadQuery, scope?: ScopeSql, db?: Knex): ListSql {
    return compileList(this.context(db), collection, query, scope);
  }

  byKeys(model: ModelSchema, keys: readonly unknown[], scope?: ScopeSql, db?: Knex): Knex.QueryBuilder {
    return compileByKeys(this.context(db), model, keys, scope);
  }

  related(rel: RelationshipSchema, ownerValues: readonly unknown[], full: boolean, db?: Knex): Knex.QueryBuilder {
    return compileRelated(this.context(db), rel, ownerValues, full);
  }

  decode(model: ModelSchema, raw: Row): Row {
    return rowDecoder(this.dialect, model)(raw);
  }
}

import { jsonApiFormat } from '@colapi/format-jsonapi';
import { modelsFromObjection } from '@colapi/objection';
import { Registry, type TotalMode } from '@colapi/schema';
import { createApi } from '@colapi/server-koa';
import { connect } from '@colapi/sql-compiler';
import { MODELS } from '@colapi/test-fixtures';
import Koa from 'koa';

/**
 * The conformance collections that the growth run reads, registered with `total` from TOTAL_MODE, so the
 * cost of `meta.total` can be measured per choice. Same interface as the target: DATABASE_URL, PORT.
 */
const mode = (process.env.TOTAL_MODE || 'exact') as TotalMode;
if (!['exact', 'estimated', 'none'].includes(mode)) throw new Error(`TOTAL_MODE must be exact, estimated or none`);
const port = Number(process.env.PORT || 8080);
const database = connect(process.env.DATABASE_URL!);
const models = await modelsFromObjection(MODELS);
const m = (name: string) => models.get(name)!;
const registry = new Registry(
  ['Person', 'Article', 'Comment', 'Tag'].map((name) => ({
    model: m(name),
    options: { name: m(name).table, methods: ['GET'] as const, total: mode },
  })),
);
const server = new Koa()
  .use(
    createApi({ registry, database, format: jsonApiFormat({ cursorSecret: process.env.CURSOR_SECRET || undefined }) }),
  )
  .listen(port, '127.0.0.1', () => {
    process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
  });
process.on('SIGTERM', () => {
  setTimeout(() => process.exit(0), 3000).unref();
  server.closeAllConnections();
  server.close(() => void database.knex.destroy().finally(() => process.exit(0)));
});

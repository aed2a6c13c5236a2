import { baselineApp } from './app.js';
import { openDriver } from './driver.js';

/** The hand-written baseline: DATABASE_URL and PORT as the conformance target takes them. */
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const port = Number(process.env.PORT || 8090);
const db = openDriver(url);
const server = baselineApp(db).listen(port, '127.0.0.1', () =>
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`),
);
const stop = () => {
  setTimeout(() => process.exit(0), 4000).unref();
  server.closeAllConnections();
  server.close(() => void db.close().finally(() => process.exit(0)));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

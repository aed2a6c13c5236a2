import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startConformanceTarget } from './conformance-app.js';

/** `pnpm conformance:serve`: DATABASE_URL, PORT and API_FORMAT as conformance/SCHEMA.md says. */
async function main() {
  const url = process.env.DATABASE_URL || `sqlite:${join(tmpdir(), 'colapi-conformance.sqlite')}`;
  const port = Number(process.env.PORT || 8080);
  const format = process.env.API_FORMAT || 'jsonapi';
  const target = await startConformanceTarget({ url, port, format });
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(0), 4000);
    force.unref();
    target.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`conformance target failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

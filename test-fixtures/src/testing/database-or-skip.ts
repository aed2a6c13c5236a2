import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.js';

/** Under CI (or REQUIRE_DATABASES=1) a database that cannot be reached fails the run instead of skipping. */
export const mustReachDatabases = () => process.env.CI === 'true' || process.env.REQUIRE_DATABASES === '1';

/**
 * A fresh database of a kind for a suite's `before` hook; when the server cannot be reached, the suite is
 * skipped with a warning on a developer's machine, and fails under CI. `prefix` names it (see createTestDatabase).
 */
export async function testDatabaseOrSkip(
  context: Mocha.Context,
  kind: DatabaseKind,
  prefix?: string,
): Promise<TestDatabase> {
  try {
    return await createTestDatabase(kind, prefix);
  } catch (error) {
    if (mustReachDatabases()) throw error;
    console.warn(`  ! ${kind} is not reachable (${(error as Error).message}); skipping`);
    context.skip();
  }
}

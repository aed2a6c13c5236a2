export { ALL_KINDS, createTestDatabase, testedKinds, type DatabaseKind, type TestDatabase } from './databases.js';
export { resetTables, seed, STANDARD_DATA, type SeedData } from './seed.js';
export { filterParam, HttpClient, type RequestOptions, type TestResponse } from './http-client.js';
export { countQueries } from './query-counter.js';
export { closeAllTargets, describeEachDatabase, itWhen, type EachDatabaseOptions, type TestTarget } from './harness.js';
export { tableDigest } from './digest.js';
export { findLeak, stringsOf } from './leaks.js';
export { createLibrary } from './library-schema.js';
export { createRestrictedRole, hasPrivileges, type RestrictedRole } from './restricted-role.js';
export { mustReachDatabases, testDatabaseOrSkip } from './database-or-skip.js';
export {
  assertJsonApiDocument,
  isJsonApiContentType,
  jsonApiViolation,
  JsonApiSchemaViolation,
  type ExchangeToCheck,
} from './jsonapi-schema.js';
export { watchJsonApiAnswers } from './schema-watch.js';
export { watchAnswers, type WatchedAnswer } from './answer-watch.js';
export { prometheusSample } from './prometheus-sample.js';

import { DATABASE_URL_VARIABLES, databaseOfWorker } from './worker-database';

/**
 * Before each test file: TEST_DATABASE_URL and its companions name this worker's copy of the test database
 * (tests/support/worker-database.ts). The shared names are kept (`<variable>_SHARED`), so that running again for
 * the worker's next file maps them once, not twice.
 */
for (const variable of DATABASE_URL_VARIABLES) {
  const shared = process.env[`${variable}_SHARED`] ?? process.env[variable];
  if (!shared) continue;
  process.env[`${variable}_SHARED`] = shared;
  process.env[variable] = databaseOfWorker(shared);
}

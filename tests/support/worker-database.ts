/**
 * On PostgreSQL (TEST_DATABASE_URL) each vitest worker has a database of its own: global-setup seeds the named
 * database once and copies it per worker (`<name>_w<worker>`, `CREATE DATABASE … TEMPLATE`), so files run side by
 * side as they do on PGlite, and no file sees another worker's writes. Files within a worker still share theirs.
 */

/** Workers on PostgreSQL: one runs beside each core of the CI machine (two), the server taking the rest. */
export const POSTGRES_WORKERS = 2;

/** This worker's number, 1 to the number of workers (vitest's VITEST_POOL_ID). */
export const workerNumber = () => Number(process.env.VITEST_POOL_ID ?? 1);

/** The URL of `url`'s database as worker `worker` has it (the same server, user and options). */
export function databaseOfWorker(url: string, worker = workerNumber()): string {
  const result = new URL(url);
  result.pathname = `${result.pathname}_w${worker}`;
  return result.toString();
}

/** The URLs naming the test database that test files read; each worker's setup points them at its own copy. */
export const DATABASE_URL_VARIABLES = ['TEST_DATABASE_URL', 'TEST_DATABASE_MIGRATION_URL', 'TEST_REPLICA_URL'];

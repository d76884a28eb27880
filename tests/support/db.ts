import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { sql } from 'drizzle-orm';
import { type Database, type Db, openPglite, openPostgres, setDatabase } from '@/db/client';
import type { QueryObserver } from '@/db/open';
import type { TestDatabaseSource } from './global-setup';
import { databaseOfWorker } from './worker-database';

/**
 * The database of an integration test file: a private in-memory copy of the seeded PGlite template, or
 * (with TEST_DATABASE_URL) this worker's copy of the PostgreSQL database that global-setup seeded. On PostgreSQL every
 * file sees what its worker's earlier files wrote: make the rows a test depends on with tests/support/factories.ts,
 * and never change the demo data.
 */
export interface TestDatabase {
  readonly database: Database;
  readonly db: Db;
  readonly kind: Database['kind'];
  /** Last day of the demo data (YYYY-MM-DD, UTC): "today" as of the seed, even if a run crosses midnight. */
  readonly today: string;
}

/**
 * The test data as this worker has it: on PostgreSQL, the URLs of the worker's own copy of the seeded database
 * (tests/support/worker-database.ts).
 */
export function testDatabase(): TestDatabaseSource {
  const source = inject('testDatabase');
  if (source.kind !== 'postgres') return source;
  return { kind: 'postgres', url: databaseOfWorker(source.url), ownerUrl: databaseOfWorker(source.ownerUrl) };
}

/**
 * The application_name of this file's PostgreSQL sessions: files share the server, and a test that looks for
 * sessions left behind (pg_stat_activity) must see only its own file's.
 */
const TEST_APPLICATION_NAME = `portal-test-${randomUUID()}`;

/** Opens a new connection to the test data: a fresh PGlite copy, or a small pool on the shared server. */
export async function openTestDatabase(options: { observe?: QueryObserver } = {}): Promise<Database> {
  const source = testDatabase();
  const { observe } = options;
  if (source.kind === 'postgres') {
    return openPostgres(source.url, { max: 5, applicationName: TEST_APPLICATION_NAME, observe });
  }
  const tarball = fs.readFileSync(source.templatePath);
  return openPglite(undefined, { loadDataDir: new Blob([tarball], { type: 'application/x-tar' }), observe });
}

/**
 * `url` (another server of the test data: its replica, say) as the owner's user: TEST_DATABASE_MIGRATION_URL's
 * when the suite runs the app as a restricted role, else `url` as it is.
 */
export function asOwnerUrl(url: string): string {
  const source = testDatabase();
  if (source.kind !== 'postgres' || source.ownerUrl === source.url) return url;
  const owner = new URL(source.ownerUrl);
  const result = new URL(url);
  result.username = owner.username;
  result.password = owner.password;
  return result.toString();
}

/**
 * Runs `work` as the tables' owner on the test file's database, for setup or checks the app's own role may not
 * do (DDL, TRUNCATE): on PostgreSQL over a connection of TEST_DATABASE_MIGRATION_URL's role when the suite runs
 * the app as a restricted role (CI), else on the file's own handle (PGlite has no roles).
 */
export async function asOwner<T>(t: TestDatabase, work: (db: Db) => Promise<T>): Promise<T> {
  const source = testDatabase();
  if (source.kind !== 'postgres' || source.ownerUrl === source.url) return work(t.db);
  const owner = await openPostgres(source.ownerUrl, { max: 1, applicationName: TEST_APPLICATION_NAME });
  try {
    return await work(owner.db);
  } finally {
    await owner.close();
  }
}

/**
 * Call at the top of an integration test file. The database opens in beforeAll and is installed with
 * setDatabase(), so route handlers and services (which call getDb()) use it; afterAll closes it.
 * Read the returned object's properties inside tests and hooks, not at the top level.
 */
export function useTestDatabase(): TestDatabase {
  let database: Database | undefined;

  beforeAll(async () => {
    database = await openTestDatabase();
    setDatabase(database);
  });

  afterAll(async () => {
    setDatabase(undefined);
    await database?.close();
    database = undefined;
  });

  const current = () => {
    if (!database) throw new Error('useTestDatabase(): the database is open only inside tests and hooks');
    return database;
  };
  return {
    get database() {
      return current();
    },
    get db() {
      return current().db;
    },
    get kind() {
      return current().kind;
    },
    today: inject('demoToday'),
  };
}

/**
 * What an export may leave behind in the test's database: on PostgreSQL, this file's sessions that are not
 * idle (a transaction still open, a cursor still being read); on PGlite, cursors still open.
 */
export async function openWork(database: Database): Promise<number> {
  const result: unknown = await database.db.execute(
    database.kind === 'postgres'
      ? sql`select count(*)::int as open from pg_stat_activity
            where application_name = ${TEST_APPLICATION_NAME} and pid <> pg_backend_pid() and state <> 'idle'`
      : sql`select count(*)::int as open from pg_cursors where name <> ''`,
  );
  // postgres.js answers an array of rows, PGlite an object holding them.
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { open: number }[];
  return Number(rows[0].open);
}

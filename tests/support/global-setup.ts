import { sql } from 'drizzle-orm';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '@/db/client';
import { migrate } from '@/db/migrate';
import { seedDemo } from '@/db/seed';
import { todayUtc } from '@/db/seed-data';
import { pgliteTemplate } from './pglite-template';
import { databaseOfWorker, POSTGRES_WORKERS } from './worker-database';
import { seedDemoPaymentHistory } from '@/lib/payments';

/**
 * Runs once per vitest run, before any test file, and prepares the data the integration tests use
 * (tests/support/db.ts opens it):
 * - by default the PGlite template, which each test file copies into a private in-memory PGlite;
 * - with TEST_DATABASE_URL, that PostgreSQL database, migrated and re-seeded, then copied once per worker
 *   (tests/support/worker-database.ts); the files of a worker share its copy. With
 *   TEST_DATABASE_MIGRATION_URL too (CI), TEST_DATABASE_URL is the app's restricted role, as in production: the
 *   migrations and the seed run as the owner, which grants that role its privileges (db/app-role.ts).
 */

export type TestDatabaseSource =
  | { kind: 'pglite'; templatePath: string }
  /** `url` is what the code under test connects with; `ownerUrl` the tables' owner, for setup that needs it. */
  | { kind: 'postgres'; url: string; ownerUrl: string };

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseSource;
    /** The last day of the demo data (YYYY-MM-DD, UTC): the `today` it was seeded with. */
    demoToday: string;
  }
}

async function preparePostgres(url: string, ownerUrl: string, today: string): Promise<void> {
  // Not a request: a year of demo rows may take longer than a request's 2 s on a busy machine.
  const database = await openPostgres(ownerUrl, { max: 1, statementTimeoutMs: 0 });
  try {
    const appRole = ownerUrl === url ? undefined : decodeURIComponent(new URL(url).username);
    await migrate(database, { appRole, regrant: true });
    await seedDemo(database.db, { today });
    await seedDemoPaymentHistory({ today, db: database.db });
  } finally {
    await database.close();
  }
  await copyPerWorker(ownerUrl);
}

/** Each worker's copy of the seeded database (tests/support/worker-database.ts), made afresh. */
async function copyPerWorker(ownerUrl: string): Promise<void> {
  const server = new URL(ownerUrl);
  const template = decodeURIComponent(server.pathname.slice(1));
  server.pathname = '/postgres';
  const maintenance = await openPostgres(server.toString(), { max: 1, statementTimeoutMs: 0 });
  try {
    for (let worker = 1; worker <= POSTGRES_WORKERS; worker++) {
      const copy = decodeURIComponent(new URL(databaseOfWorker(ownerUrl, worker)).pathname.slice(1));
      await maintenance.db.execute(sql.raw(`drop database if exists "${copy}" with (force)`));
      await maintenance.db.execute(sql.raw(`create database "${copy}" template "${template}"`));
    }
  } finally {
    await maintenance.close();
  }
}

export default async function setup(project: TestProject) {
  const today = todayUtc();
  project.provide('demoToday', today);
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const ownerUrl = process.env.TEST_DATABASE_MIGRATION_URL || url;
    await preparePostgres(url, ownerUrl, today);
    project.provide('testDatabase', { kind: 'postgres', url, ownerUrl });
  } else {
    project.provide('testDatabase', { kind: 'pglite', templatePath: await pgliteTemplate(today) });
  }
}

/** The process's one database: opened from the configuration (DATABASE_URL or PGLITE_DIR), migrated, shared. */
import { acquireEmbeddedLock } from './embedded-lock';
import { migrate, type MigrateOptions } from './migrate';
import { type Database, type Db, openPglite, openPostgres, openReplica } from './open';
import { databaseMisconfiguration } from '@/lib/platform/deployment';
import { env, migrationAccess } from '@/lib/platform/env';
import { AppError } from '@/lib/shared/errors';

export { type Database, type Db, openPglite, openPostgres, openReplica, type RunStream, type Tx } from './open';

/**
 * Opens the configured database and applies pending migrations: PostgreSQL when DATABASE_URL is set (migrated
 * as DATABASE_MIGRATION_URL's owner when set, which then grants DATABASE_URL's role its privileges),
 * otherwise the embedded PGlite folder, which is also seeded with demo data the first time it is created.
 */
export async function openConfiguredDatabase(
  options: { seedIfEmpty?: boolean; statementTimeoutMs?: number; migrate?: MigrateOptions } = {},
): Promise<Database> {
  const { DATABASE_URL, PGLITE_DIR } = env();
  if (DATABASE_URL) {
    const database = await openPostgres(DATABASE_URL, { statementTimeoutMs: options.statementTimeoutMs });
    try {
      await migrate(database, { ...migrationAccess(), ...options.migrate });
    } catch (err) {
      await database.close();
      throw err;
    }
    return database;
  }
  const misconfigured = databaseMisconfiguration();
  if (misconfigured) throw new AppError('unavailable', misconfigured);
  const release = acquireEmbeddedLock(PGLITE_DIR);
  try {
    const database = await openPglite(PGLITE_DIR);
    await migrate(database, options.migrate);
    if (options.seedIfEmpty ?? true) {
      const { seedDemoIfEmpty } = await import('./seed');
      await seedDemoIfEmpty(database.db);
    }
    return {
      ...database,
      close: async () => {
        await database.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

// Next.js may evaluate this module in more than one bundle of the same process; the handle lives on
// globalThis so that every bundle shares one connection (and PGlite is opened once).
const slot = globalThis as unknown as {
  __portalDb?: Promise<Database>;
  __portalDbKind?: Database['kind'];
  __portalReadDb?: Promise<Database>;
};

/** Which kind of database requests use: the one installed, or else the one configured. */
export function databaseKind(): Database['kind'] {
  return slot.__portalDbKind ?? (env().DATABASE_URL ? 'postgres' : 'pglite');
}

export function getDatabase(): Promise<Database> {
  if (!slot.__portalDb) {
    const opening = openConfiguredDatabase();
    slot.__portalDb = opening;
    // Never memoize a failure: the next request tries again (e.g. once PostgreSQL is back).
    opening.catch(() => {
      if (slot.__portalDb === opening) slot.__portalDb = undefined;
    });
  }
  return slot.__portalDb;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Tests and scripts install a database of their own (a PGlite copy of the test template, say). */
export function setDatabase(database: Database | undefined) {
  slot.__portalDb = database ? Promise.resolve(database) : undefined;
  slot.__portalDbKind = database?.kind;
  slot.__portalReadDb = undefined;
}

/** Whether reads go to a replica (DATABASE_REPLICA_URL), or an installed read database. */
export function readsFromReplica(): boolean {
  return !!slot.__portalReadDb || !!env().DATABASE_REPLICA_URL;
}

/**
 * Where reports, rows, exports and the dashboard's figures are read: the replica when DATABASE_REPLICA_URL is
 * set (db/open.ts openReplica: the primary while the replica is down), else the one database. Key checks,
 * sessions and every write use getDatabase(), so what was written a moment ago (a new key) works at once.
 */
export function getReadDatabase(): Promise<Database> {
  const { DATABASE_REPLICA_URL, DATABASE_URL } = env();
  if (!slot.__portalReadDb && DATABASE_REPLICA_URL && DATABASE_URL) {
    const opening = openReplica(DATABASE_REPLICA_URL, DATABASE_URL);
    slot.__portalReadDb = opening;
    opening.catch(() => {
      if (slot.__portalReadDb === opening) slot.__portalReadDb = undefined;
    });
  }
  return slot.__portalReadDb ?? getDatabase();
}

export async function getReadDb(): Promise<Db> {
  return (await getReadDatabase()).db;
}

/** Tests install a read database of their own (a replica), after setDatabase. */
export function setReadDatabase(database: Database | undefined) {
  slot.__portalReadDb = database ? Promise.resolve(database) : undefined;
}

import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { type Database, type Db, openPostgres } from './open';
import { AppError } from '@/lib/shared/errors';
import { MIGRATION_LOCK_WAIT_MS, MIGRATION_SESSION_IDLE_TIMEOUT_MS } from '@/lib/platform/limits';
import { log } from '@/lib/platform/log';
import { queryRows } from './raw-query';
import { isInsufficientPrivilege } from './append-only';
import { grantAppRole } from './app-role';

/**
 * Applies db/migrations. The files, the journal and the bookkeeping table (drizzle.__drizzle_migrations) are
 * drizzle-kit's, read the way drizzle's own migrator reads them: a migration is pending when its journal time
 * (`when`) is later than the newest `created_at` recorded. Unlike drizzle's migrator, which runs every pending
 * migration in one transaction, each migration gets its own, and one whose first line is NO_TRANSACTION runs
 * statement by statement outside any, as CREATE INDEX CONCURRENTLY needs.
 */

export const migrationsFolder = path.join(process.cwd(), 'db', 'migrations');

/** The first line of a migration to run outside a transaction; each of its statements must be safe to rerun. */
const NO_TRANSACTION = '-- migrate: no-transaction';

/** Any fixed number: the key of the advisory lock that serialises migrators across instances. */
const MIGRATION_LOCK = 7_310_2024;
/** pg_locks' row of that lock in this database, when granted (a bigint key is split into classid and objid). */
const GRANTED_LOCK = sql`locktype = 'advisory' and granted and objsubid = 1
  and database = (select oid from pg_database where datname = current_database())
  and ((classid::bigint << 32) | objid::bigint) = ${MIGRATION_LOCK}::bigint`;
/** How often a waiting migrator asks for the lock again. */
const LOCK_POLL_MS = 200;

export interface Migration {
  tag: string;
  statements: string[];
  /** SHA-256 of the file, as drizzle records it (never compared, by drizzle or by us). */
  hash: string;
  /** The journal's `when`: what `created_at` records and what decides whether it is applied. */
  createdAt: number;
  inTransaction: boolean;
}

export interface MigrateOptions {
  /** PostgreSQL: how long to wait for another migrator's lock before giving up (MigrationsRunningElsewhereError). */
  lockWaitMs?: number;
  /** Called once when another session holds the lock, before waiting for it. */
  onWait?: (holder: string, waitMs: number) => void;
  /** Called after each migration is applied; the next waits for what it returns (still under the lock). */
  onApplied?: (migration: Migration, ms: number) => void | Promise<void>;
  /** PostgreSQL: how long the migrator's session may sit idle before PostgreSQL ends it, freeing the lock. */
  idleTimeoutMs?: number;
  /** Tests migrate from copies of the folder. */
  folder?: string;
  /**
   * PostgreSQL: the URL to migrate with (DATABASE_MIGRATION_URL), the tables' owner, when the database's own
   * handle is the app's restricted role. Without it the handle's URL migrates.
   */
  ownerUrl?: string;
  /** PostgreSQL: the app's restricted role, granted its privileges (db/app-role.ts) after migrations are applied. */
  appRole?: string;
  /** Grant the app role its privileges even when no migration is pending (npm run db:migrate: a rerun repairs them). */
  regrant?: boolean;
}

/**
 * Migrations are pending and the app's role may not apply them (nor, perhaps, even read which are applied): a 503
 * naming what to do, never memoized, so the app serves again once the owner has migrated.
 */
export class MigrationsNeedOwnerError extends AppError {
  constructor(pending: Migration[] | null, reason: string) {
    super(
      'unavailable',
      (pending
        ? `${pending.length} database migration${pending.length === 1 ? ' is' : 's are'} pending (${spanOf(pending)}) ` +
          "and DATABASE_URL's role may not apply them"
        : "DATABASE_URL's role may not read which database migrations are applied") +
        ` (PostgreSQL: ${reason}). Run npm run db:migrate as the tables' owner (DATABASE_MIGRATION_URL set to the ` +
        "owner's URL; it also grants the app's role its privileges), or set DATABASE_MIGRATION_URL for the server " +
        'too (README, "Database roles").',
    );
    this.name = 'MigrationsNeedOwnerError';
  }
}

const spanOf = (pending: Migration[]) =>
  pending.length === 1 ? pending[0].tag : `${pending[0].tag} … ${pending[pending.length - 1].tag}`;

/** Another migrator kept the lock longer than we may wait: a 503 with Retry-After, never memoized. */
export class MigrationsRunningElsewhereError extends AppError {
  constructor(
    readonly waitedMs: number,
    /** Who holds the lock, for the operator and the log; not for API callers. */
    readonly holder: string,
  ) {
    super(
      'unavailable',
      `Database migrations are running elsewhere (another instance of this deployment, or npm run db:migrate); ` +
        `waited ${waitedMs / 1000} s for them. Retry in a few seconds.`,
    );
    this.name = 'MigrationsRunningElsewhereError';
  }
}

export function readMigrations(folder = migrationsFolder): Migration[] {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8'));
  const tags = (journal.entries as { tag: string }[]).map((entry) => entry.tag);
  return readMigrationFiles({ migrationsFolder: folder }).map((file, i) => ({
    tag: tags[i],
    statements: file.sql.filter((statement) => statement.trim() !== ''),
    hash: file.hash,
    createdAt: file.folderMillis,
    inTransaction: !file.sql[0].trimStart().startsWith(NO_TRANSACTION),
  }));
}

/**
 * Applies the pending migrations and returns their tags. On PostgreSQL under an advisory lock on a session of
 * its own: pg_try_advisory_lock, asked again until `lockWaitMs` has passed since the call, then
 * MigrationsRunningElsewhereError. The embedded database needs no lock: one process holds its folder
 * (db/embedded-lock.ts), and a second one is refused at once.
 */
export async function migrate(database: Database, options: MigrateOptions = {}): Promise<string[]> {
  // The wait counts from here: connecting and asking are part of what a first request waits for.
  const started = performance.now();
  const migrations = readMigrations(options.folder);
  if (database.kind === 'pglite' || !database.url) return applyPending(database.db, migrations, options, null);
  const { ownerUrl, appRole } = options;
  // Most starts find nothing to do: ask before taking a connection and the lock.
  const pending = await pendingOf(database.db, migrations).catch((err) => {
    // The app's role not granted yet (a new database): the owner finds out.
    if (ownerUrl && isInsufficientPrivilege(err)) return migrations;
    throw isInsufficientPrivilege(err) ? new MigrationsNeedOwnerError(null, describe(err)) : err;
  });
  if (pending.length === 0 && !(appRole && options.regrant)) return [];
  // Not a request: building an index over a large table takes minutes, not a request's 2 s.
  const session = await openPostgres(ownerUrl ?? database.url, { max: 1, statementTimeoutMs: 0 });
  try {
    await prepareSession(session.db, options.idleTimeoutMs ?? MIGRATION_SESSION_IDLE_TIMEOUT_MS);
    await takeLock(session.db, options, started);
    try {
      const applied = await applyPending(session.db, migrations, options, () => assertStillLocked(session.db)).catch(
        (err) => {
          if (ownerUrl || !isInsufficientPrivilege(err)) throw err;
          throw new MigrationsNeedOwnerError(pending, describe(err));
        },
      );
      if (appRole) await grantAppRole(session.db, appRole);
      return applied;
    } finally {
      // Closing the session releases the lock too: a failure here must not hide the migration's own.
      await session.db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK}::bigint)`).catch(() => {});
    }
  } finally {
    await session.close();
  }
}

/** The driver's own message of a failed query ("permission denied for schema public"), not drizzle's wrapping. */
function describe(err: unknown): string {
  let innermost = err;
  while ((innermost as { cause?: unknown }).cause) innermost = (innermost as { cause?: unknown }).cause;
  return innermost instanceof Error ? innermost.message : String(innermost);
}

async function pendingOf(db: Db, migrations: Migration[]): Promise<Migration[]> {
  const [{ present }] = await queryRows<{ present: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!present) return migrations;
  const [{ last }] = await queryRows<{ last: string | null }>(
    db,
    sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`,
  );
  return last === null ? migrations : migrations.filter((m) => m.createdAt > Number(last));
}

/**
 * The migrator's session: named, so a waiting migrator can say who holds the lock; and ended by PostgreSQL
 * when it sits idle (a serverless instance frozen mid-migration), which releases the lock.
 */
async function prepareSession(db: Db, idleTimeoutMs: number): Promise<void> {
  const idle = `${idleTimeoutMs}ms`;
  await db.execute(sql`select set_config('application_name', 'publisher-portal migrations', false),
    set_config('idle_in_transaction_session_timeout', ${idle}, false)`);
  // idle_session_timeout exists from PostgreSQL 14 on.
  await db.execute(sql`select set_config(name, ${idle}, false) from pg_settings where name = 'idle_session_timeout'`);
}

async function takeLock(db: Db, options: MigrateOptions, started: number): Promise<void> {
  const waitMs = options.lockWaitMs ?? MIGRATION_LOCK_WAIT_MS;
  let holder: string | undefined;
  for (;;) {
    const [{ locked }] = await queryRows<{ locked: boolean }>(
      db,
      sql`select pg_try_advisory_lock(${MIGRATION_LOCK}::bigint) as locked`,
    );
    if (locked) return;
    if (holder === undefined) {
      holder = await lockHolder(db);
      options.onWait?.(holder, waitMs);
    }
    const waited = performance.now() - started;
    if (waited >= waitMs) {
      log.warn({ waitedMs: waitMs, holder }, 'migrations are running elsewhere: gave up waiting');
      throw new MigrationsRunningElsewhereError(waitMs, holder);
    }
    await sleep(Math.min(LOCK_POLL_MS, waitMs - waited));
  }
}

async function lockHolder(db: Db): Promise<string> {
  const [holder] = await queryRows<{ pid: number; app: string | null; addr: string | null; since: string | null }>(
    db,
    sql`select pid, nullif(a.application_name, '') as app, host(a.client_addr) as addr,
          to_char(a.backend_start at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as since
        from pg_locks join pg_stat_activity a using (pid) where ${GRANTED_LOCK}`,
  );
  if (!holder) return 'a session that has just released it';
  const from = [holder.app, holder.addr && `from ${holder.addr}`, holder.since && `connected ${holder.since}`];
  return `PostgreSQL session ${holder.pid} (${from.filter(Boolean).join(', ') || 'no details visible'})`;
}

/**
 * A migrator whose session PostgreSQL ended (idle too long) has lost the lock, and postgres.js would carry on
 * over a new session: it must stop instead, as another migrator may have the lock by now.
 */
async function assertStillLocked(db: Db): Promise<void> {
  const [{ held }] = await queryRows<{ held: boolean }>(
    db,
    sql`select exists (select from pg_locks where pid = pg_backend_pid() and ${GRANTED_LOCK}) as held`,
  );
  if (!held)
    throw new Error('Lost the migration lock (the session was ended, idle too long): run the migrations again.');
}

async function applyPending(
  db: Db,
  migrations: Migration[],
  options: MigrateOptions,
  beforeEach: (() => Promise<void>) | null,
): Promise<string[]> {
  await db.execute(sql`CREATE SCHEMA IF NOT EXISTS drizzle`);
  await db.execute(sql`CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (
    id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`);
  const pending = await pendingOf(db, migrations);
  for (const migration of pending) {
    await beforeEach?.();
    const started = performance.now();
    const record = sql`insert into drizzle.__drizzle_migrations ("hash", "created_at")
      values (${migration.hash}, ${migration.createdAt})`;
    if (migration.inTransaction) {
      await db.transaction(async (tx) => {
        for (const statement of migration.statements) await tx.execute(sql.raw(statement));
        await tx.execute(record);
      });
    } else {
      for (const [i, statement] of migration.statements.entries()) {
        // Each statement commits on its own: the lock is checked before each, not only before the migration.
        if (i > 0) await beforeEach?.();
        await dropIfInvalid(db, statement);
        await db.execute(sql.raw(statement));
      }
      await db.execute(record);
    }
    await options.onApplied?.(migration, performance.now() - started);
  }
  return pending.map((m) => m.tag);
}

const CONCURRENT_INDEX = /\bCREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+(?:IF\s+NOT\s+EXISTS\s+)?"?([\w$]+)"?/i;

/**
 * A CREATE INDEX CONCURRENTLY that failed or was cut off leaves its index behind, INVALID: unused by queries,
 * yet IF NOT EXISTS would skip it. A rerun drops such an index first, so the statement builds it again.
 */
async function dropIfInvalid(db: Db, statement: string): Promise<void> {
  const name = CONCURRENT_INDEX.exec(statement.replace(/^\s*--.*$/gm, ''))?.[1];
  if (!name) return;
  const invalid = await queryRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
        where c.relname = ${name} and c.relnamespace = current_schema()::regnamespace and not i.indisvalid`,
  );
  if (invalid.length === 0) return;
  log.warn({ index: name }, 'dropping an invalid index left by an interrupted build, to build it again');
  await db.execute(sql`DROP INDEX CONCURRENTLY IF EXISTS ${sql.identifier(name)}`);
}

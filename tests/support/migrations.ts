import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { vi } from 'vitest';
import { type Database, type Db, getDatabase, openPglite, openPostgres, setDatabase } from '@/db/client';
import { migrationsFolder } from '@/db/migrate';
import { readEnv, setEnv } from '@/lib/platform/env';
import { runCli } from '@/scripts/run-cli';
import { workerNumber } from './worker-database';

/**
 * What tests/integration/migrate.test.ts needs: new, empty databases of either kind, copies of the migrations
 * folder, a database's schema as comparable text, and `npm run db:migrate` run in process.
 */

export type Kind = Database['kind'];

export async function rows<T>(db: Db, statement: SQL): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

let scratchCount = 0;

/**
 * A new, empty database: in-memory PGlite, or a database of its own on the test server (`serverUrl`), dropped
 * again by `drop()`. `open()` gives more handles on the same database (PostgreSQL only).
 */
export interface ScratchDatabase {
  database: Database;
  /** PostgreSQL: the scratch database's URL. */
  url?: string;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

export async function emptyDatabase(kind: Kind, serverUrl?: string): Promise<ScratchDatabase> {
  if (kind === 'pglite') {
    const database = await openPglite(undefined);
    return { database, open: () => Promise.reject(new Error('one handle per PGlite')), drop: () => database.close() };
  }
  // No statement timeout: on a busy machine DROP DATABASE may take longer than a request's 2 s.
  const admin = await openPostgres(serverUrl!, { max: 1, statementTimeoutMs: 0 });
  // Workers are threads of one process: the worker's number keeps their names apart.
  const name = `deploy_migrate_${process.pid}_w${workerNumber()}_${++scratchCount}`;
  await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
  await admin.db.execute(sql.raw(`create database ${name}`));
  const url = new URL(serverUrl!);
  url.pathname = `/${name}`;
  const handles: Database[] = [];
  const open = async () => {
    const handle = await openPostgres(url.toString(), { max: 2 });
    handles.push(handle);
    return handle;
  };
  const database = await open();
  return {
    database,
    url: url.toString(),
    open,
    drop: async () => {
      await Promise.all(handles.map((h) => h.close()));
      await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await admin.close();
    },
  };
}

/**
 * A copy of db/migrations in a temporary folder: the first `count` migrations of the journal (all by
 * default), each file's text passed through `edit`.
 */
export function migrationsCopy(options: { count?: number; edit?: (text: string) => string } = {}): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-migrations-'));
  fs.mkdirSync(path.join(folder, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'));
  journal.entries = journal.entries.slice(0, options.count);
  fs.writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const { tag } of journal.entries as { tag: string }[]) {
    const text = fs.readFileSync(path.join(migrationsFolder, `${tag}.sql`), 'utf8');
    fs.writeFileSync(path.join(folder, `${tag}.sql`), options.edit ? options.edit(text) : text);
  }
  return folder;
}

/** Everything migrations make, one line each, sorted: columns, indexes (and their validity), constraints,
 * triggers, functions and types. Two databases with equal snapshots have the same schema. */
export async function schemaSnapshot(db: Db): Promise<string[]> {
  const lines = await rows<{ line: string }>(
    db,
    sql`select 'column ' || table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' '
               || is_nullable || ' ' || coalesce(column_default, '') as line
        from information_schema.columns where table_schema in ('public', 'drizzle')
        union all
        select 'index ' || i.indexrelid::regclass || ' valid=' || i.indisvalid || ' ' || pg_get_indexdef(i.indexrelid)
        from pg_index i join pg_class c on c.oid = i.indrelid
        where c.relnamespace in ('public'::regnamespace, 'drizzle'::regnamespace)
        union all
        select 'constraint ' || conrelid::regclass || '.' || conname || ' ' || pg_get_constraintdef(oid)
        from pg_constraint where connamespace = 'public'::regnamespace
        union all
        select 'trigger ' || pg_get_triggerdef(oid) from pg_trigger where not tgisinternal
        union all
        select 'function ' || proname || ' ' || md5(pg_get_functiondef(oid))
        from pg_proc where pronamespace = 'public'::regnamespace and prokind = 'f'
        union all
        select 'type ' || typname || ' ' || coalesce((select string_agg(enumlabel, ',' order by enumsortorder)
                                                      from pg_enum where enumtypid = t.oid), '')
        from pg_type t where typnamespace = 'public'::regnamespace and typtype = 'e'`,
  );
  return lines.map((r) => r.line).sort();
}

/** The bookkeeping drizzle (and db/migrate.ts) keep: which migrations are applied, by journal time. */
export async function appliedMigrations(db: Db): Promise<{ id: number; hash: string; created_at: string }[]> {
  return rows(db, sql`select id, hash, created_at::text from drizzle.__drizzle_migrations order by id`);
}

/** `npm run db:migrate` in this process (what scripts/cli.ts runs), with the environment an operator would set. */
export async function runMigrateCommand(args: string[], environment: Record<string, string> = {}) {
  if (Object.keys(environment).length > 0) setEnv(readEnv({ ...process.env, DATABASE_URL: '', ...environment }));
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts) => void out.push(parts.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...parts) => void err.push(parts.join(' ')));
  try {
    const code = await runCli(['migrate', ...args]);
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

/** Closes the database the app opened for itself (getDatabase), if any, and forgets it. */
export async function closeInstalledDatabase() {
  const opened = await getDatabase().catch(() => undefined);
  setDatabase(undefined);
  await opened?.close();
}

/** A promise and the function that resolves it: a gate a test opens when it chooses. */
export function resolvable() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

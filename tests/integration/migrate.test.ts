import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { migrate as drizzlePgliteMigrate } from 'drizzle-orm/pglite/migrator';
import { migrate as drizzlePostgresMigrate } from 'drizzle-orm/postgres-js/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openPglite, setDatabase } from '@/db/client';
import { lockPathFor } from '@/db/embedded-lock';
import { MigrationsRunningElsewhereError, migrate, migrationsFolder, readMigrations } from '@/db/migrate';
import { generateApiKey } from '@/lib/keys/key-format';
import { readEnv, setEnv } from '@/lib/platform/env';
import { REQUEST_DEADLINE_MS } from '@/lib/platform/limits';
import { callApi } from '../support/api';
import {
  type Kind,
  appliedMigrations,
  closeInstalledDatabase,
  emptyDatabase,
  migrationsCopy,
  resolvable,
  rows,
  runMigrateCommand,
  schemaSnapshot,
} from '../support/migrations';
import { expectRollupMatchesDaily } from './rollup-helpers';
import { testDatabase } from '../support/db';

/**
 * db/migrate.ts on the embedded database and, with TEST_DATABASE_URL, on PostgreSQL: it applies drizzle-kit's
 * migrations with drizzle's bookkeeping, so databases migrated before keep their history, and runs 0005's
 * index builds with CONCURRENTLY outside a transaction; a second migrator gets a bounded, clear answer; and
 * `npm run db:migrate`, the deploy step.
 */

/** Each of these makes new databases and migrates them (a few seconds each, more on a busy machine). */
const SLOW = 120_000;
const source = testDatabase();
const kinds: Kind[] = source.kind === 'postgres' ? ['pglite', 'postgres'] : ['pglite'];
// New databases are made (and migrated) as the tables' owner would.
const serverUrl = source.kind === 'postgres' ? source.ownerUrl : undefined;
const ALL = readMigrations().map((m) => m.tag);
const METRIC_INDEXES = [
  'revenue_daily_user_impressions_idx',
  'revenue_daily_user_clicks_idx',
  'revenue_daily_user_ad_requests_idx',
  'revenue_daily_user_revenue_idx',
  'revenue_daily_user_cpm_idx',
  'revenue_daily_user_fill_rate_idx',
];

/** 0005's first statement, as it stands in the file. */
const METRIC_INDEX_0 = readMigrations()[5].statements[0];

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })));
const copyOf = (options: Parameters<typeof migrationsCopy>[0]) => {
  const folder = migrationsCopy(options);
  folders.push(folder);
  return folder;
};

/** The migrations as drizzle's own migrator can run them: all in one transaction, so no CONCURRENTLY. */
const asDrizzleRunsThem = () => copyOf({ edit: (text) => text.replaceAll(' CONCURRENTLY', '') });

async function drizzleMigrate(database: Database, folder: string) {
  const run = database.kind === 'pglite' ? drizzlePgliteMigrate : drizzlePostgresMigrate;
  await run(database.db as never, { migrationsFolder: folder });
}

async function metricIndexes(database: Database) {
  return rows<{ name: string; valid: boolean; ready: boolean; definition: string }>(
    database.db,
    sql`select c.relname as name, i.indisvalid as valid, i.indisready as ready, pg_get_indexdef(i.indexrelid) as definition
        from pg_index i join pg_class c on c.oid = i.indexrelid
        where c.relname in ${METRIC_INDEXES} order by c.relname`,
  );
}

describe.each(kinds)('migrations on %s', (kind) => {
  it('0005 runs outside a transaction, every other migration inside one', () => {
    expect(
      readMigrations()
        .filter((m) => !m.inTransaction)
        .map((m) => m.tag),
    ).toEqual(['0005_metric_sort_indexes']);
    expect(fs.readFileSync(`${migrationsFolder}/0005_metric_sort_indexes.sql`, 'utf8')).not.toMatch(
      /CREATE INDEX (?!CONCURRENTLY IF NOT EXISTS)/,
    );
  });

  it(
    "apply to a new database, with 0005's indexes valid; a second run applies and changes nothing",
    async () => {
      const scratch = await emptyDatabase(kind, serverUrl);
      try {
        expect(await migrate(scratch.database)).toEqual(ALL);
        const indexes = await metricIndexes(scratch.database);
        expect(indexes.map((i) => i.name).sort()).toEqual([...METRIC_INDEXES].sort());
        expect(indexes.every((i) => i.valid && i.ready)).toBe(true);

        const schema = await schemaSnapshot(scratch.database.db);
        const history = await appliedMigrations(scratch.database.db);
        expect(history.map((h) => Number(h.created_at))).toEqual(readMigrations().map((m) => m.createdAt));
        expect(await migrate(scratch.database)).toEqual([]);
        expect(await schemaSnapshot(scratch.database.db)).toEqual(schema);
        expect(await appliedMigrations(scratch.database.db)).toEqual(history);
      } finally {
        await scratch.drop();
      }
    },
    SLOW,
  );

  it(
    "makes the same schema as drizzle's own migrator, and reruns nothing on a database it migrated",
    async () => {
      const ours = await emptyDatabase(kind, serverUrl);
      const theirs = await emptyDatabase(kind, serverUrl);
      try {
        await migrate(ours.database);
        await drizzleMigrate(theirs.database, asDrizzleRunsThem());
        expect(await schemaSnapshot(ours.database.db)).toEqual(await schemaSnapshot(theirs.database.db));

        // An existing database: its recorded 0005 has another hash (the file changed); only journal times count.
        const history = await appliedMigrations(theirs.database.db);
        expect(history.find((h) => Number(h.created_at) === readMigrations()[5].createdAt)?.hash).not.toBe(
          readMigrations()[5].hash,
        );
        expect(await migrate(theirs.database)).toEqual([]);
        expect(await appliedMigrations(theirs.database.db)).toEqual(history);
      } finally {
        await Promise.all([ours.drop(), theirs.drop()]);
      }
    },
    SLOW,
  );

  it(
    'a rerun after an interrupted 0005 drops the INVALID index it left, builds it again and skips the built',
    async () => {
      const scratch = await emptyDatabase(kind, serverUrl);
      const { db } = scratch.database;
      try {
        // A deployment stopped after 0004, with rows to index: one account, a site, two rows.
        expect(await migrate(scratch.database, { folder: copyOf({ count: 5 }) })).toEqual(ALL.slice(0, 5));
        // Written in SQL: the seed writes today's schema, which has columns this one does not yet.
        await db.execute(sql`
          WITH u AS (INSERT INTO users (email, name) VALUES ('migrate@example.com', 'Migrate') RETURNING id),
               s AS (INSERT INTO sites (user_id, name) SELECT id, 'Site' FROM u RETURNING id, user_id)
          INSERT INTO revenue_daily (site_id, user_id, day, country, impressions, clicks)
          SELECT s.id, s.user_id, d.day, 'DE', 10, 1 FROM s, (VALUES (current_date), (current_date - 1)) AS d(day)`);
        // 0005 got as far as building its first index, then a build failed: left behind INVALID.
        await db.execute(sql.raw(METRIC_INDEX_0));
        await expect(
          db.execute(
            sql`CREATE UNIQUE INDEX CONCURRENTLY "revenue_daily_user_clicks_idx" ON "revenue_daily" ("user_id")`,
          ),
        ).rejects.toThrow();
        expect(await metricIndexes(scratch.database)).toMatchObject([
          { name: 'revenue_daily_user_clicks_idx', valid: false },
          { name: 'revenue_daily_user_impressions_idx', valid: true },
        ]);

        expect(await migrate(scratch.database, { folder: copyOf({ count: 16 }) })).toEqual(ALL.slice(5, 16));
        const indexes = await metricIndexes(scratch.database);
        expect(indexes).toHaveLength(6);
        expect(indexes.every((i) => i.valid && i.ready)).toBe(true);
        expect(indexes.find((i) => i.name === 'revenue_daily_user_clicks_idx')?.definition).toBe(
          'CREATE INDEX revenue_daily_user_clicks_idx ON public.revenue_daily USING btree (user_id, clicks)',
        );

        // 0016 moves the rows into months of a partitioned table, whose indexes are its months' (ON ONLY).
        const rollup = sql`select grain, period::text, site_id, country, impressions, clicks, rows from revenue_rollup
                           order by 1, 2, 3, 4`;
        const rollupBefore = await rows(db, rollup);
        expect(await migrate(scratch.database, { folder: copyOf({ count: 17 }) })).toEqual(ALL.slice(16, 17));
        expect(
          await rows(db, sql`select day::text, tableoid::regclass::text as month from revenue_daily order by day`),
        ).toEqual(
          await rows(
            db,
            sql`select d::date::text as day, 'revenue_daily_' || to_char(d, 'YYYY_MM') as month
                  from (values (current_date - 1), (current_date)) as v(d) order by d`,
          ),
        );
        expect(await rows(db, rollup)).toEqual(rollupBefore);
        const partitioned = await metricIndexes(scratch.database);
        expect(partitioned.find((i) => i.name === 'revenue_daily_user_clicks_idx')?.definition).toBe(
          'CREATE INDEX revenue_daily_user_clicks_idx ON ONLY public.revenue_daily USING btree (user_id, clicks)',
        );

        // 0017 adds the sites' years by country, summed from their months.
        expect(await migrate(scratch.database)).toEqual(ALL.slice(17));
        await expectRollupMatchesDaily(db);
      } finally {
        await scratch.drop();
      }
    },
    SLOW,
  );
});

describe('a second migrator while the first holds the lock', () => {
  afterAll(() => setEnv(undefined));

  it('on the embedded database: a second process is refused at once, its requests answered 503 with Retry-After', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-migrate-'));
    folders.push(dir);
    // The process that started this test run is alive and is not this one: to us, a server holding the folder.
    fs.writeFileSync(lockPathFor(`${dir}/pglite`), String(process.ppid));
    setEnv(readEnv({ ...process.env, DATABASE_URL: '', PGLITE_DIR: `${dir}/pglite` }));
    setDatabase(undefined);
    const started = performance.now();
    const res = await callApi('GET', '/api/v1/sites', { key: generateApiKey().raw });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    const cli = await runMigrateCommand([]);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/in use by another process \(pid \d+\)/);
  });

  it.runIf(serverUrl)(
    'on PostgreSQL: a bounded wait, then 503 with Retry-After saying why; the next request opens the database',
    async () => {
      const scratch = await emptyDatabase('postgres', serverUrl);
      const gate = resolvable();
      const holding = resolvable();
      try {
        // The first migrator pauses after its first migration, holding the lock.
        const first = migrate(scratch.database, { onApplied: () => (holding.resolve(), gate.promise) });
        await holding.promise;

        const second = await scratch.open();
        let started = performance.now();
        const refused = await migrate(second, { lockWaitMs: 1_000 }).catch((err: unknown) => err);
        expect(refused).toBeInstanceOf(MigrationsRunningElsewhereError);
        expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
        expect(performance.now() - started).toBeLessThan(1_800);
        expect((refused as MigrationsRunningElsewhereError).holder).toMatch(
          /^PostgreSQL session \d+ \(publisher-portal migrations/,
        );

        // A deployment's first request, with the default wait: inside the API's deadline, and it says why.
        setEnv(readEnv({ ...process.env, DATABASE_URL: scratch.url! }));
        setDatabase(undefined);
        started = performance.now();
        const res = await callApi('GET', '/api/v1/sites', { key: generateApiKey().raw });
        expect(performance.now() - started).toBeLessThan(REQUEST_DEADLINE_MS);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(res.json.detail).toMatch(/^Database migrations are running elsewhere .*Retry in a few seconds\.$/);
        expect(res.json.detail).not.toMatch(/session \d+/); // who holds it is for the log, not for callers

        // `npm run db:migrate` waits longer, saying so, and gives up when told.
        const cli = await runMigrateCommand(['--wait', '1'], { DATABASE_URL: scratch.url! });
        expect(cli.code).toBe(1);
        expect(cli.stdout).toMatch(/Another migrator holds the lock: PostgreSQL session \d+ .*at most 1 s/);
        expect(cli.stderr).toMatch(/gave up after 1 s: PostgreSQL session \d+ .* still holds the migration lock/);

        gate.resolve();
        expect(await first).toEqual(ALL);
        // The failure was not kept: this request opens the database and looks the key up (401, not 503).
        expect((await callApi('GET', '/api/v1/sites', { key: generateApiKey().raw })).status).toBe(401);
        const cliAfter = await runMigrateCommand([], { DATABASE_URL: scratch.url! });
        expect(cliAfter.stdout).toMatch(new RegExp(`is up to date: all ${ALL.length} migrations were applied before`));
      } finally {
        gate.resolve();
        await closeInstalledDatabase();
        await scratch.drop();
      }
    },
    SLOW,
  );
  it.runIf(serverUrl)(
    'on PostgreSQL: a migrator frozen halfway loses the lock once its session has sat idle, and then stops',
    async () => {
      const scratch = await emptyDatabase('postgres', serverUrl);
      const gate = resolvable();
      const holding = resolvable();
      try {
        // A serverless instance suspended after its first migration: its session idles, holding the lock.
        const frozen = migrate(scratch.database, {
          idleTimeoutMs: 1_000,
          onApplied: () => (holding.resolve(), gate.promise),
        }).catch((err: unknown) => err);
        await holding.promise;
        // PostgreSQL ends that session after 1 s idle: the next migrator gets the lock and does the rest.
        expect(await migrate(await scratch.open(), { lockWaitMs: 10_000 })).toEqual(ALL.slice(1));
        // The frozen one wakes up without its lock and stops rather than run on over a new session.
        gate.resolve();
        expect(String(await frozen)).toMatch(/Lost the migration lock/);
        expect((await appliedMigrations(scratch.database.db)).length).toBe(ALL.length);
      } finally {
        gate.resolve();
        await scratch.drop();
      }
    },
    SLOW,
  );
});

describe('npm run db:migrate', () => {
  afterAll(() => setEnv(undefined));

  it(
    'applies every migration to a new embedded database and nothing else; run again, applies nothing',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-migrate-'));
      folders.push(dir);
      const env = { ...process.env, DATABASE_URL: '', PGLITE_DIR: `${dir}/pglite` };
      const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'db:migrate'], { env, timeout: 60_000 });
      expect(stdout).toMatch(/^Applied 0000_init \(\d+\.\d s\)\.$/m);
      expect(stdout).toMatch(/^Applied 0005_metric_sort_indexes \(\d+\.\d s, outside a transaction\)\.$/m);
      expect(stdout).toMatch(
        new RegExp(`embedded PGlite in .* is up to date: applied ${ALL.length} of ${ALL.length} migrations\\.$`, 'm'),
      );
      const again = await runMigrateCommand([], { PGLITE_DIR: `${dir}/pglite` });
      expect(again).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(`all ${ALL.length} migrations were applied before`),
      });
      const database = await openPglite(`${dir}/pglite`);
      try {
        expect(await rows(database.db, sql`select count(*)::int as n from users`)).toEqual([{ n: 0 }]);
      } finally {
        await database.close();
      }
    },
    SLOW,
  );

  it('on Vercel without DATABASE_URL: nothing to migrate, says so and succeeds, creating nothing', async () => {
    const dir = path.join(os.tmpdir(), `portal-migrate-none-${process.pid}`);
    const result = await runMigrateCommand([], { VERCEL: '1', PGLITE_DIR: dir });
    expect(result).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^DATABASE_URL is not set: nothing to migrate/),
    });
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('refuses a --wait that is not a whole number of seconds', async () => {
    expect(await runMigrateCommand(['--wait', '1.5'])).toMatchObject({ code: 2 });
  });
});

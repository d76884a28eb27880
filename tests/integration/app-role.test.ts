/**
 * The app's own PostgreSQL role (issue 39, point 5): migrated as the tables' owner, which grants the role what the
 * app needs (db/app-role.ts), the app may only SELECT and INSERT the activity log and the ledger; PostgreSQL itself
 * refuses it UPDATE, DELETE and TRUNCATE there, and lifting a trigger. A server whose role cannot migrate says so.
 * Each test works in new databases of its own on the test server, as a role of this file's own.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPEND_ONLY_TABLES } from '@/db/append-only';
import { grantAppRole } from '@/db/app-role';
import { type Database, getDatabase, openPostgres, setDatabase } from '@/db/client';
import { migrate, MigrationsNeedOwnerError, readMigrations } from '@/db/migrate';
import { seedDemo } from '@/db/seed';
import { generateApiKey } from '@/lib/keys/key-format';
import { readEnv, setEnv } from '@/lib/platform/env';
import { callApi } from '../support/api';
import {
  closeInstalledDatabase,
  emptyDatabase,
  migrationsCopy,
  rows,
  runMigrateCommand,
  type ScratchDatabase,
} from '../support/migrations';
import { testDatabase } from '../support/db';

const source = testDatabase();
const ownerServerUrl = source.kind === 'postgres' ? source.ownerUrl : undefined;
const ROLE = `portal_app_test_${process.pid}`;

/** The same database as `role`, which logs in without a password (the test server trusts 127.0.0.1). */
function urlAs(url: string, role: string): string {
  const as = new URL(url);
  as.username = role;
  as.password = '';
  return as.toString();
}

/** A column of each table that an UPDATE may name (an identity column may only be set to DEFAULT). */
const SOME_COLUMN: Record<(typeof APPEND_ONLY_TABLES)[number], string> = {
  audit_events: 'kind',
  statements: 'month',
  statement_lines: 'kind',
  payments: 'reference',
};

const refused = (message: string | RegExp) => ({ cause: { code: '42501', message } });

describe.skipIf(!ownerServerUrl)(
  'the app role (PostgreSQL only: PGlite has no roles; run with TEST_DATABASE_URL)',
  () => {
    let admin: Database;
    let scratch: ScratchDatabase;
    let app: Database;

    beforeAll(async () => {
      admin = await openPostgres(ownerServerUrl!, { max: 1 });
      await admin.db.execute(
        sql.raw(`do $$ begin
        if not exists (select from pg_roles where rolname = '${ROLE}') then create role ${ROLE} login; end if;
      end $$`),
      );
      scratch = await emptyDatabase('postgres', ownerServerUrl);
      await migrate(scratch.database, { appRole: ROLE });
      app = await openPostgres(urlAs(scratch.url!, ROLE), { max: 2 });
    });

    afterAll(async () => {
      setEnv(undefined);
      setDatabase(undefined);
      await app?.close();
      await scratch?.drop();
      await admin?.db.execute(sql.raw(`drop role if exists ${ROLE}`));
      await admin?.close();
    });

    /** An account with a statement, a line and a payment, written as the app role (INSERT is all it needs). */
    async function accountWithLedger(): Promise<string> {
      const [{ id }] = await rows<{ id: string }>(
        app.db,
        sql`insert into users (email, name) values (${`ledger-${Date.now()}@test.example`}, 'Ledger') returning id`,
      );
      const [{ id: statementId }] = await rows<{ id: string }>(
        app.db,
        sql`insert into statements (account_id, month, opening_micros, earnings_micros, adjustments_micros,
            amount_due_micros, carried_micros, threshold_micros, due_on)
          values (${id}, '2024-01-01', 0, 5000000, 0, 5000000, 0, 1000000, '2024-02-29') returning id`,
      );
      await app.db
        .execute(sql`insert into statement_lines (statement_id, kind, month, site_id, site_name, amount_micros)
      values (${statementId}, 'earnings', '2024-01-01', gen_random_uuid(), 'Sea', 5000000)`);
      await app.db.execute(sql`insert into payments (statement_id, account_id, amount_micros, paid_on, reference)
      values (${statementId}, ${id}, 5000000, '2024-02-29', 'T-1')`);
      await app.db.execute(
        sql`insert into audit_events (kind, actor_kind, account_id) values ('test', 'system', ${id})`,
      );
      return id;
    }

    const ledgerCounts = (db: Database['db'], accountId: string) =>
      rows<Record<string, number>>(
        db,
        sql`select (select count(*)::int from statements where account_id = ${accountId}) as statements,
                 (select count(*)::int from payments where account_id = ${accountId}) as payments,
                 (select count(*)::int from audit_events where account_id = ${accountId}) as events`,
      );

    it('may INSERT and SELECT the activity log and the ledger, and read and write the other tables', async () => {
      const accountId = await accountWithLedger();
      expect(await ledgerCounts(app.db, accountId)).toEqual([{ statements: 1, payments: 1, events: 1 }]);
      await app.db.execute(sql`update users set name = 'Renamed' where id = ${accountId}`);
      expect(await rows(app.db, sql`select name from users where id = ${accountId}`)).toEqual([{ name: 'Renamed' }]);
    });

    it.each(APPEND_ONLY_TABLES)('may not UPDATE, DELETE or TRUNCATE %s: PostgreSQL refuses it', async (table) => {
      await accountWithLedger();
      const name = sql.identifier(table);
      const column = sql.identifier(SOME_COLUMN[table]);
      for (const statement of [
        sql`update ${name} set ${column} = ${column}`,
        sql`delete from ${name}`,
        sql`truncate ${name} cascade`,
      ]) {
        await expect(app.db.execute(statement)).rejects.toMatchObject(refused(`permission denied for table ${table}`));
      }
    });

    it("makes revenue's months through the owner's function, and may not create a table itself", async () => {
      await app.db.execute(sql`select revenue_daily_add_months('2031-01-01', '2031-02-28')`);
      expect(
        await rows(
          app.db,
          sql`select relname as month, pg_get_userbyid(relowner) = current_user as mine from pg_class
            where relname in ('revenue_daily_2031_01', 'revenue_daily_2031_02') order by 1`,
        ),
      ).toEqual([
        { month: 'revenue_daily_2031_01', mine: false },
        { month: 'revenue_daily_2031_02', mine: false },
      ]);
      const [{ id }] = await rows<{ id: string }>(
        app.db,
        sql`insert into users (email, name) values (${`months-${Date.now()}@test.example`}, 'Months') returning id`,
      );
      const [{ siteId }] = await rows<{ siteId: string }>(
        app.db,
        sql`insert into sites (user_id, name) values (${id}, 'Far') returning id as "siteId"`,
      );
      await app.db.execute(sql`insert into revenue_daily (site_id, user_id, day, country, revenue_micros)
      values (${siteId}, ${id}, '2031-01-15', 'US', 1000000)`);
      await expect(app.db.execute(sql`create table mine (a int)`)).rejects.toMatchObject(
        refused('permission denied for schema public'),
      );
    });

    it('may not lift a guard, nor run the demo seed, which replaces the ledger', async () => {
      await expect(
        app.db.execute(sql`alter table audit_events disable trigger audit_events_no_truncate`),
      ).rejects.toMatchObject(refused('must be owner of table audit_events'));
      await expect(seedDemo(app.db, { days: 1 })).rejects.toThrow(/must run as the tables' owner/);
    });

    it("deletes an account with its ledger: the foreign keys' cascade runs as the tables' owner", async () => {
      const accountId = await accountWithLedger();
      await app.db.execute(sql`delete from users where id = ${accountId}`);
      // The activity log keeps its events: they outlive what they name.
      expect(await ledgerCounts(app.db, accountId)).toEqual([{ statements: 0, payments: 0, events: 1 }]);
    });

    it('npm run db:migrate as the owner grants the role again, repairing what was taken away', async () => {
      await scratch.database.db.execute(sql.raw(`revoke insert on audit_events from ${ROLE}`));
      const insertEvent = () => app.db.execute(sql`insert into audit_events (kind, actor_kind) values ('x', 'system')`);
      await expect(insertEvent()).rejects.toMatchObject(refused('permission denied for table audit_events'));
      const run = await runMigrateCommand([], {
        DATABASE_URL: urlAs(scratch.url!, ROLE),
        DATABASE_MIGRATION_URL: scratch.url!,
      });
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toContain(`Granted the app's role "${ROLE}" its privileges`);
      await insertEvent();
    });

    it('is never the role the migrations run as, nor a superuser', async () => {
      const [{ owner }] = await rows<{ owner: string }>(scratch.database.db, sql`select current_user as owner`);
      await expect(grantAppRole(scratch.database.db, owner)).rejects.toThrow(/must connect as a role of its own/);
    });

    it('a server as that role answers 503 naming the fix while migrations are pending, and applies them with DATABASE_MIGRATION_URL', async () => {
      const fresh = await emptyDatabase('postgres', ownerServerUrl);
      try {
        const appUrl = urlAs(fresh.url!, ROLE);
        // As a new server process: nothing opened yet (getDatabase opens the configured database).
        const serve = (environment: Record<string, string>) => {
          setDatabase(undefined);
          setEnv(readEnv({ ...process.env, DATABASE_URL: appUrl, ...environment }));
          return getDatabase();
        };
        // A new database: everything is pending, and the role may not even create the bookkeeping.
        const all = readMigrations();
        await expect(serve({})).rejects.toBeInstanceOf(MigrationsNeedOwnerError);
        await expect(serve({})).rejects.toMatchObject({
          code: 'unavailable',
          message: expect.stringContaining(
            `${all.length} database migrations are pending (0000_init … ${all.at(-1)!.tag})`,
          ),
        });
        // Migrated by the owner up to the last migration but one, the role granted: the last is pending.
        await migrate(fresh.database, { folder: migrationsCopy({ count: all.length - 1 }), appRole: ROLE });
        await expect(serve({})).rejects.toThrow(
          new RegExp(
            `1 database migration is pending \\(${all.at(-1)!.tag}\\) .*npm run db:migrate.*DATABASE_MIGRATION_URL`,
          ),
        );
        // A request meanwhile: 503 with the reason, not a 500.
        const answer = await callApi('GET', '/api/v1/sites', { key: generateApiKey().raw });
        expect(answer.status).toBe(503);
        expect(answer.json.detail).toContain('DATABASE_MIGRATION_URL');
        // With the owner's URL the server migrates itself, then grants the role what the new tables need.
        const database = await serve({ DATABASE_MIGRATION_URL: fresh.url! });
        expect(await rows(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`)).toEqual([
          { n: all.length },
        ]);
        await expect(database.db.execute(sql`truncate audit_events`)).rejects.toMatchObject(
          refused('permission denied for table audit_events'),
        );
      } finally {
        await closeInstalledDatabase(); // the server's, opened with DATABASE_MIGRATION_URL
        await fresh.drop();
      }
    });
  },
);

/**
 * The app's own PostgreSQL role (DATABASE_URL's user when the migrations run as another, DATABASE_MIGRATION_URL's):
 * what it may do, granted by the migrator after migrating. It reads and writes the data, never the schema, and
 * only appends to the activity log and the ledger: were the app's code or a request to go wrong, PostgreSQL itself
 * refuses an UPDATE, DELETE or TRUNCATE there, before any trigger runs.
 */
import { sql } from 'drizzle-orm';
import { APPEND_ONLY_TABLES } from './append-only';
import type { Db } from './open';
import { queryRows } from './raw-query';

/**
 * Grants `role` exactly what the app needs, in one transaction, so no session sees it half done:
 * - every table of the schema: SELECT, INSERT, UPDATE, DELETE (nothing else: no TRUNCATE, REFERENCES, TRIGGER);
 * - the append-only tables: SELECT and INSERT alone. No code path updates or deletes their rows: closing a month
 *   and recording a payment insert, and deleting an account removes its ledger through the foreign keys' cascade,
 *   which PostgreSQL runs as the tables' owner (and the row triggers of 0010 let through);
 * - the sequences: USAGE and SELECT (nextval, currval), not setval;
 * - the functions: EXECUTE, revenue_daily_add_months among them, which makes revenue's months as the owner (0019);
 * - the migrations' bookkeeping: SELECT, so the app can tell whether migrations are pending.
 * Privileges granted before (ALL, say) are revoked first: what is listed here is all the role has on them.
 */
export async function grantAppRole(db: Db, role: string): Promise<void> {
  const [found] = await queryRows<{ owner: string; superuser: boolean; inherits: boolean }>(
    db,
    sql`select current_user as owner, rolsuper as superuser, pg_has_role(rolname, current_user, 'USAGE') as inherits
        from pg_roles where rolname = ${role}`,
  );
  if (!found) {
    throw new Error(
      `The app role "${role}" does not exist: create it first (README, "Database roles"), e.g. ` +
        `CREATE ROLE ${role} LOGIN PASSWORD '…', then migrate again.`,
    );
  }
  if (found.superuser || found.inherits) {
    // Grants would restrict nothing: it may do whatever the owner (or a superuser) may.
    const what = found.superuser
      ? 'is a superuser'
      : `is, or inherits the privileges of, "${found.owner}", the role the migrations run as`;
    throw new Error(
      `The app role "${role}" ${what}: ` +
        'the app must connect as a role of its own (README, "Database roles"). Check DATABASE_APP_ROLE and the users ' +
        'of DATABASE_URL and DATABASE_MIGRATION_URL.',
    );
  }
  const app = sql.identifier(role);
  const appendOnly = sql.join(
    APPEND_ONLY_TABLES.map((table) => sql.identifier(table)),
    sql`, `,
  );
  await db.transaction(async (tx) => {
    await tx.execute(sql`REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${app}`);
    await tx.execute(sql`REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${app}`);
    await tx.execute(sql`REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM ${app}`);
    await tx.execute(sql`GRANT USAGE ON SCHEMA public, drizzle TO ${app}`);
    await tx.execute(sql`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${app}`);
    await tx.execute(sql`REVOKE UPDATE, DELETE ON ${appendOnly} FROM ${app}`);
    await tx.execute(sql`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${app}`);
    await tx.execute(sql`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO ${app}`);
    await tx.execute(sql`GRANT SELECT ON drizzle.__drizzle_migrations TO ${app}`);
  });
}

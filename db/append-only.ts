/**
 * The tables that only grow: the activity log and the ledger. Triggers refuse UPDATE, DELETE (migrations 0007 and
 * 0010) and TRUNCATE (0019) whoever asks, and on PostgreSQL the app's own role may only SELECT and INSERT them
 * (db/app-role.ts). A correction is a new row (an adjustment line on a later statement), never an edit.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from './open';

export const APPEND_ONLY_TABLES = ['audit_events', 'statements', 'statement_lines', 'payments'] as const;

/** The ledger's tables: a TRUNCATE of users … CASCADE reaches them (statements belong to an account). */
const LEDGER_TABLES = ['statements', 'statement_lines', 'payments'] as const;

/** The statement-level trigger of migration 0019 that refuses TRUNCATE of `table`. */
const truncateGuardOf = (table: string) => `${table}_no_truncate`;

/**
 * Runs `work` (a TRUNCATE of the accounts … CASCADE, the demo seed's) with the ledger's TRUNCATE guards lifted, in
 * the caller's transaction: the seed replaces every account, and their statements go with them. Only the tables'
 * owner may lift a trigger (ALTER TABLE … DISABLE TRIGGER), never the app's restricted role. The guards are back
 * before the transaction commits, and a failure rolls the lifting back with the rest, so no other session ever
 * sees them lifted (ALTER TABLE holds the tables exclusively until then anyway).
 */
export async function withLedgerTruncateAllowed<T>(tx: Tx, work: () => Promise<T>): Promise<T> {
  await switchTruncateGuards(tx, 'DISABLE');
  const result = await work();
  await switchTruncateGuards(tx, 'ENABLE');
  return result;
}

async function switchTruncateGuards(tx: Tx, how: 'DISABLE' | 'ENABLE') {
  for (const table of LEDGER_TABLES) {
    try {
      await tx.execute(
        sql`ALTER TABLE ${sql.identifier(table)} ${sql.raw(how)} TRIGGER ${sql.identifier(truncateGuardOf(table))}`,
      );
    } catch (err) {
      throw isInsufficientPrivilege(err)
        ? new Error(
            'The demo seed replaces every account, their statements and payments included, so it must run as the ' +
              "tables' owner: run it with DATABASE_URL set to the owner's URL (DATABASE_MIGRATION_URL).",
            { cause: err },
          )
        : err;
    }
  }
}

/** PostgreSQL's 42501: permission denied, or "must be owner of". Drizzle wraps the driver's error as its cause. */
export function isInsufficientPrivilege(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '42501') return true;
  }
  return false;
}

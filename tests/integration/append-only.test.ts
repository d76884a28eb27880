/**
 * Append-only means append-only (issue 39, point 5). The activity log and the ledger refuse TRUNCATE by trigger,
 * even for their owner, on both databases (migration 0019); only the demo seed lifts that guard, inside its own
 * transaction. The app's own PostgreSQL role may only SELECT and INSERT them: see app-role.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { APPEND_ONLY_TABLES, withLedgerTruncateAllowed } from '@/db/append-only';
import type { Db } from '@/db/client';
import { asOwner, useTestDatabase } from '../support/db';
import { rows } from '../support/migrations';

const t = useTestDatabase();

/** Thrown to roll a transaction back once its checks have run. */
const rollback = new Error('rollback');

/** Runs `work` in a transaction that is always rolled back; resolves when only the rollback was thrown. */
async function rolledBack(db: Db, work: (tx: Db) => Promise<unknown>): Promise<void> {
  await db
    .transaction(async (tx) => {
      // Emptying every account of the shared database can outlast a request's 2 s on a busy machine.
      await tx.execute(sql`set local statement_timeout = 0`);
      await work(tx as unknown as Db);
      throw rollback;
    })
    .catch((err) => {
      if (err !== rollback) throw err;
    });
}

const guards = (db: Db) =>
  rows<{ table: string; enabled: string }>(
    db,
    sql`select tgrelid::regclass::text as table, tgenabled::text as enabled from pg_trigger
        where tgname like '%\\_no\\_truncate' and not tgisinternal order by 1`,
  );

describe('TRUNCATE of the activity log and the ledger', () => {
  it.each(APPEND_ONLY_TABLES)('is refused for %s, even for its owner', async (table) => {
    // CASCADE, so that no foreign key refuses it before the trigger can (statement_lines references statements).
    const truncate = (db: Db) => db.execute(sql`truncate ${sql.identifier(table)} cascade`);
    await asOwner(t, async (db) => {
      const before = await rows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(table)}`);
      await expect(rolledBack(db, truncate)).rejects.toMatchObject({
        cause: { message: `${table} is append-only: TRUNCATE refused`, code: '42501' },
      });
      expect(await rows(db, sql`select count(*)::int as n from ${sql.identifier(table)}`)).toEqual(before);
    });
  });

  it('is refused when a TRUNCATE of the accounts … CASCADE reaches their statements', async () => {
    await asOwner(t, async (db) => {
      await expect(
        rolledBack(db, (tx) =>
          tx.execute(sql`truncate revenue_daily, api_keys, sessions, sites, users, people cascade`),
        ),
      ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/^statement\w* is append-only: TRUNCATE/) } });
    });
  });

  it('is let through for the demo seed alone, in its transaction, and guarded again before it commits', async () => {
    await asOwner(t, async (db) => {
      const [{ n: statements }] = await rows<{ n: number }>(db, sql`select count(*)::int as n from statements`);
      expect(statements).toBeGreaterThan(0); // the demo's payments history
      await rolledBack(db, async (tx) => {
        await withLedgerTruncateAllowed(tx, () => tx.execute(sql`truncate users, people cascade`));
        expect(await rows(tx, sql`select count(*)::int as n from statements`)).toEqual([{ n: 0 }]);
        // Back on before the commit: another statement in the same transaction is refused again.
        expect((await guards(tx)).every((g) => g.enabled === 'O')).toBe(true);
        const again = tx.execute(sql`savepoint again`).then(() => tx.execute(sql`truncate payments`));
        await expect(again).rejects.toMatchObject({ cause: { message: 'payments is append-only: TRUNCATE refused' } });
        await tx.execute(sql`rollback to savepoint again`);
      });
      expect(await rows(db, sql`select count(*)::int as n from statements`)).toEqual([{ n: statements }]);
    });
  });

  it('guards exactly the append-only tables, each also against UPDATE and DELETE', async () => {
    const tables = await guards(t.db);
    expect(tables).toEqual([...APPEND_ONLY_TABLES].sort().map((table) => ({ table, enabled: 'O' })));
    const rowGuards = await rows<{ table: string }>(
      t.db,
      sql`select tgrelid::regclass::text as table from pg_trigger
          where tgname like '%\\_append\\_only' and not tgisinternal
            and tgtype & 27 = 27 -- FOR EACH ROW (1), BEFORE (2), DELETE (8) and UPDATE (16)
          order by 1`,
    );
    expect(rowGuards.map((g) => g.table)).toEqual([...APPEND_ONLY_TABLES].sort());
  });

  it('leaves an event written and readable (append-only, not read-only)', async () => {
    const kind = `test.append-only.${randomUUID()}`;
    await t.db.execute(sql`insert into audit_events (kind, actor_kind) values (${kind}, 'system')`);
    expect(await rows(t.db, sql`select kind from audit_events where kind = ${kind}`)).toEqual([{ kind }]);
  });
});

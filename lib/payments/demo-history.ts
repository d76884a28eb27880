/**
 * The demo's payments history, so that a new portal's Payments page has one: every month before this one
 * closed (as the operator's month-end close would), each amount due paid on its due date but the latest, so
 * there is a next payment. Written once, for a demo database (db/seed.ts) whose months were never closed.
 */
import { eq, gt } from 'drizzle-orm';
import { getDb, type Db } from '@/db/client';
import { revenueRollup, users } from '@/db/schema';
import { payments, statements } from '@/db/schema-payments';
import { DEMO_IDS } from '@/db/seed-data';
import { COMMAND_LINE } from '@/lib/access';
import { todayUtc } from '@/lib/query';
import { closeThrough } from './close';
import { monthOf, previousMonth } from './months';

export async function seedDemoPaymentHistory({
  today = todayUtc(),
  db,
}: { today?: string; db?: Db } = {}): Promise<void> {
  db ??= await getDb();
  await db.transaction(async (tx) => {
    // Only a demo database (its publisher has revenue), and only before any month was ever closed.
    const [demo] = await tx
      .select({ id: users.id })
      .from(users)
      .innerJoin(revenueRollup, eq(revenueRollup.userId, users.id))
      .where(eq(users.id, DEMO_IDS.users.demo))
      .limit(1);
    const [closed] = await tx.select({ id: statements.id }).from(statements).limit(1);
    if (!demo || closed) return;
    await closeThrough(tx, COMMAND_LINE, previousMonth(monthOf(today)));
    const due = await tx
      .select({
        id: statements.id,
        accountId: statements.accountId,
        amount: statements.amountDueMicros,
        dueOn: statements.dueOn,
      })
      .from(statements)
      .where(gt(statements.amountDueMicros, 0))
      .orderBy(statements.accountId, statements.month);
    // Every account's latest amount due stays unpaid: the next payment.
    const paid = due.filter((s, i) => due[i + 1]?.accountId === s.accountId && s.dueOn! <= today);
    if (paid.length === 0) return;
    await tx.insert(payments).values(
      paid.map((s) => ({
        statementId: s.id,
        accountId: s.accountId,
        amountMicros: s.amount,
        paidOn: s.dueOn!,
        reference: `DEMO-${s.dueOn!.replaceAll('-', '')}`,
      })),
    );
  });
}

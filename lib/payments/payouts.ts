/** The operator's view of what is owed: finalized statements with an amount due and no payment yet. */
import { and, asc, eq, gt, isNull, max } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { users } from '@/db/schema';
import { payments, statements } from '@/db/schema-payments';
import { requireOperator, type Principal } from '@/lib/access';

export interface UnpaidStatement {
  accountId: string;
  accountName: string;
  accountEmail: string;
  month: string;
  amountDueMicros: number;
  dueOn: string | null;
}

/** Every statement awaiting its payment, the earliest due first; and the last month closed for any account. */
export async function listPayouts(
  principal: Principal,
): Promise<{ unpaid: UnpaidStatement[]; closedThrough: string | null }> {
  requireOperator(principal, 'pay', 'Payouts');
  const db = await getDb();
  const [unpaid, [closed]] = await Promise.all([
    db
      .select({
        accountId: statements.accountId,
        accountName: users.name,
        accountEmail: users.email,
        month: statements.month,
        amountDueMicros: statements.amountDueMicros,
        dueOn: statements.dueOn,
      })
      .from(statements)
      .innerJoin(users, eq(users.id, statements.accountId))
      .leftJoin(payments, eq(payments.statementId, statements.id))
      .where(and(gt(statements.amountDueMicros, 0), isNull(payments.id)))
      .orderBy(asc(statements.dueOn), asc(users.name)),
    db.select({ month: max(statements.month) }).from(statements),
  ]);
  return { unpaid, closedThrough: closed?.month ?? null };
}

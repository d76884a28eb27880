/**
 * What the ledger's arithmetic (ledger.ts) needs, read in one transaction: the finalized statements with their
 * lines and payments, what each site earned by month (the rollup's site × month groups) and the sites' names.
 * For one account (the publisher's pages and API) or every account (closing a month).
 */
import { and, asc, type Column, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { revenueRollup, sites } from '@/db/schema';
import {
  payments,
  statementLines,
  statements,
  type PaymentRow,
  type StatementLineRow,
  type StatementRow,
} from '@/db/schema-payments';
import type { SiteMonth } from './ledger';

export interface FinalizedStatement extends StatementRow {
  lines: StatementLineRow[];
  payment: PaymentRow | null;
}

interface AccountLedger {
  finalized: FinalizedStatement[];
  actual: SiteMonth[];
}

export interface LedgerReading {
  byAccount: Map<string, AccountLedger>;
  siteName: (id: string) => string;
}

/** Every account's ledger (`accountId` null) or one account's, with revenue through `through` when given. */
export async function readLedgers(
  tx: Tx,
  { accountId, through }: { accountId: string | null; through?: string },
): Promise<LedgerReading> {
  // One account's rows, or every account's.
  const ofAccount = (column: Column) => (accountId ? eq(column, accountId) : undefined);
  const [statementRows, lineRows, paymentRows, earned, siteRows] = await Promise.all([
    tx
      .select()
      .from(statements)
      .where(ofAccount(statements.accountId))
      .orderBy(asc(statements.accountId), asc(statements.month)),
    tx
      .select({ line: statementLines })
      .from(statementLines)
      .innerJoin(statements, eq(statements.id, statementLines.statementId))
      .where(ofAccount(statements.accountId))
      .orderBy(asc(statementLines.id)),
    tx.select().from(payments).where(ofAccount(payments.accountId)),
    tx
      .select({
        accountId: revenueRollup.userId,
        siteId: revenueRollup.siteId,
        month: revenueRollup.period,
        micros: revenueRollup.revenueMicros,
      })
      .from(revenueRollup)
      .where(
        and(
          ofAccount(revenueRollup.userId),
          eq(revenueRollup.grain, 'm'),
          isNotNull(revenueRollup.siteId),
          isNull(revenueRollup.country),
          through ? lte(revenueRollup.period, through) : undefined,
        ),
      ),
    tx.select({ id: sites.id, name: sites.name }).from(sites).where(ofAccount(sites.userId)),
  ]);

  const byAccount = new Map<string, AccountLedger>();
  const ledgerOf = (id: string) => {
    let ledger = byAccount.get(id);
    if (!ledger) byAccount.set(id, (ledger = { finalized: [], actual: [] }));
    return ledger;
  };
  const byStatement = new Map<string, FinalizedStatement>();
  for (const row of statementRows) {
    const statement = { ...row, lines: [], payment: null };
    byStatement.set(row.id, statement);
    ledgerOf(row.accountId).finalized.push(statement);
  }
  for (const { line } of lineRows) byStatement.get(line.statementId)?.lines.push(line);
  for (const payment of paymentRows) {
    const statement = byStatement.get(payment.statementId);
    if (statement) statement.payment = payment;
  }
  for (const e of earned) ledgerOf(e.accountId).actual.push({ month: e.month, siteId: e.siteId!, micros: e.micros });
  const names = new Map(siteRows.map((s) => [s.id, s.name]));
  return { byAccount, siteName: (id) => names.get(id) ?? id };
}

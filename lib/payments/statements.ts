/**
 * A publisher account's statements and balance, as its Owners and Finance members and its account-level keys
 * read them: the finalized statements as written, then the open months as estimates (lib/payments/ledger.ts),
 * the first of those carrying the adjustments not on a statement yet.
 */
import { eq } from 'drizzle-orm';
import { getDb, type Tx } from '@/db/client';
import { users } from '@/db/schema';
import type { Principal } from '@/lib/access';
import { todayUtc } from '@/lib/query';
import { payoutRules } from '@/lib/platform/env';
import { badRequest, notFound } from '@/lib/shared/errors';
import { usdFromMicros } from '@/lib/shared/money';
import { requireStatementReader } from './access';
import { closingOf, draftStatements, type LineDraft, type StatementDraft } from './ledger';
import { isMonthName, monthFromName, monthName, monthOf } from './months';
import { readLedgers, type FinalizedStatement } from './read-ledger';
import type { BalanceResponse, StatementResponse, StatementStatus, StatementSummary } from './schemas';

/** A statement as the account sees it, before the JSON edge: integer micro-dollars, its lines, its state. */
export interface AccountStatement extends StatementDraft {
  /** Opening + earnings + adjustments (closingOf), computed once here for everyone who shows or sorts by it. */
  closingMicros: number;
  status: StatementStatus;
  finalizedAt: Date | null;
  paidOn: string | null;
  paymentReference: string | null;
}

export interface AccountLedgerView {
  accountId: string;
  accountName: string;
  /** Oldest first: the finalized ones, then the estimates through this month (or the last month with revenue). */
  statements: AccountStatement[];
  paidMicros: number;
}

const finalizedView = (s: FinalizedStatement): AccountStatement => ({
  ...s,
  closingMicros: closingOf(s),
  status: s.payment ? 'paid' : 'finalized',
  paidOn: s.payment?.paidOn ?? null,
  paymentReference: s.payment?.reference ?? null,
});

/** Every statement of the principal's account, finalized and estimated, read in one snapshot. */
export async function accountLedger(principal: Principal, today = todayUtc()): Promise<AccountLedgerView> {
  requireStatementReader(principal);
  const db = await getDb();
  return db.transaction((tx) => readAccount(tx, principal.userId, today), { isolationLevel: 'repeatable read' });
}

async function readAccount(tx: Tx, accountId: string, today: string): Promise<AccountLedgerView> {
  const [ledgers, [account]] = await Promise.all([
    readLedgers(tx, { accountId }),
    tx.select({ name: users.name }).from(users).where(eq(users.id, accountId)),
  ]);
  const ledger = ledgers.byAccount.get(accountId) ?? { finalized: [], actual: [] };
  const lastEarned = ledger.actual.reduce((last, a) => (a.month > last ? a.month : last), monthOf(today));
  const estimates = draftStatements({
    ...ledger,
    siteName: ledgers.siteName,
    through: lastEarned,
    rules: payoutRules(),
  });
  return {
    accountId,
    accountName: account?.name ?? '',
    statements: [
      ...ledger.finalized.map(finalizedView),
      ...estimates.map((draft) => ({
        ...draft,
        closingMicros: closingOf(draft),
        status: 'estimated' as const,
        finalizedAt: null,
        paidOn: null,
        paymentReference: null,
      })),
    ],
    paidMicros: ledger.finalized.reduce((sum, s) => sum + (s.payment?.amountMicros ?? 0), 0),
  };
}

/** The statement of `month` (`YYYY-MM`), or 404 naming the months there are. */
export function statementOf(view: AccountLedgerView, month: string): AccountStatement {
  const found = view.statements.find((s) => s.month === monthFromName(month));
  if (found) return found;
  const first = view.statements[0];
  throw notFound(
    first
      ? `No statement for ${month}: this account's statements run from ${monthName(first.month)} to ${monthName(view.statements.at(-1)!.month)}.`
      : `No statement for ${month}: this account has earned nothing yet.`,
  );
}

/** One statement of the principal's account by its month (`YYYY-MM`), with the account's ledger it is part of. */
export async function getStatement(principal: Principal, month: string, today = todayUtc()) {
  if (!isMonthName(month)) throw badRequest('month', `must be a month like 2026-10, got ${JSON.stringify(month)}`);
  const view = await accountLedger(principal, today);
  return { view, statement: statementOf(view, month) };
}

/** What the account is owed, and when the next payment comes. */
export function balanceOf(view: AccountLedgerView): BalanceResponse {
  const finalized = view.statements.filter((s) => s.status !== 'estimated');
  const estimates = view.statements.filter((s) => s.status === 'estimated');
  const carried = finalized.at(-1)?.carriedMicros ?? 0;
  const estimated = estimates.reduce((sum, s) => sum + s.earningsMicros + s.adjustmentsMicros, 0);
  const earned = view.statements.reduce((sum, s) => sum + s.earningsMicros + s.adjustmentsMicros, 0);
  const unpaidDue = finalized.filter((s) => s.status === 'finalized').reduce((sum, s) => sum + s.amountDueMicros, 0);
  const next = view.statements.find((s) => s.amountDueMicros > 0 && s.status !== 'paid');
  const threshold = estimates[0]?.thresholdMicros ?? payoutRules().thresholdMicros;
  return {
    currency: 'USD',
    balance: usdFromMicros(earned - view.paidMicros),
    finalizedUnpaid: usdFromMicros(unpaidDue + carried),
    estimated: usdFromMicros(estimated),
    carriedOver: usdFromMicros(carried),
    threshold: usdFromMicros(threshold),
    towardThreshold: usdFromMicros(carried + estimated),
    paidToDate: usdFromMicros(view.paidMicros),
    nextPayment: next
      ? {
          month: monthName(next.month),
          amount: usdFromMicros(next.amountDueMicros),
          expectedOn: next.dueOn!,
          estimated: next.status === 'estimated',
        }
      : null,
  };
}

/** A statement's figures at the JSON edge. */
export function summaryOf(s: AccountStatement): StatementSummary {
  return {
    month: monthName(s.month),
    status: s.status,
    openingBalance: usdFromMicros(s.openingMicros),
    earnings: usdFromMicros(s.earningsMicros),
    adjustments: usdFromMicros(s.adjustmentsMicros),
    closingBalance: usdFromMicros(s.closingMicros),
    amountDue: usdFromMicros(s.amountDueMicros),
    carriedOver: usdFromMicros(s.carriedMicros),
    threshold: usdFromMicros(s.thresholdMicros),
    expectedPaymentDate: s.dueOn,
    finalizedAt: s.finalizedAt?.toISOString() ?? null,
    paidAt: s.paidOn,
    paymentReference: s.paymentReference,
  };
}

const lineOf = (l: Pick<LineDraft, 'kind' | 'month' | 'siteId' | 'siteName' | 'amountMicros'>) => ({
  kind: l.kind,
  month: monthName(l.month),
  siteId: l.siteId,
  siteName: l.siteName,
  amount: usdFromMicros(l.amountMicros),
});

export function statementResponseOf(view: AccountLedgerView, s: AccountStatement): StatementResponse {
  return { ...summaryOf(s), accountId: view.accountId, accountName: view.accountName, lines: s.lines.map(lineOf) };
}

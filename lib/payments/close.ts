/**
 * The operator's month-end close: every publisher account's statements through a month are written, from one
 * snapshot of the revenue (REPEATABLE READ: an import committing meanwhile is wholly in it or wholly out), each
 * month an account had not closed yet in turn, the first one carrying the adjustments of months already closed.
 * Closing a month again writes nothing and says so.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { getDb, type Tx } from '@/db/client';
import { users } from '@/db/schema';
import { statementLines, statements } from '@/db/schema-payments';
import { alertOnEvents } from '@/lib/alerts';
import { actorOf, recordEvents, type ActivityInput } from '@/lib/activity';
import { requireOperator, type Principal } from '@/lib/access';
import { todayUtc } from '@/lib/query';
import { payoutRules } from '@/lib/platform/env';
import { badRequest } from '@/lib/shared/errors';
import { draftStatements, type StatementDraft } from './ledger';
import { monthName, monthOf } from './months';
import { readLedgers } from './read-ledger';

export interface CloseSummary {
  month: string;
  /** Accounts that got statements now, and how many statements in all (one per month not closed before). */
  accounts: number;
  statements: number;
  /** The total of the amounts now due, micro-dollars. */
  amountDueMicros: number;
}

/** Rows per INSERT: well under the 65,535 parameters a statement may bind. */
const CHUNK = 2_000;

/** Closes `month` (`YYYY-MM`) and any month before it not closed yet, for every publisher account. */
export async function closeMonth(
  principal: Principal,
  { month, today = todayUtc() }: { month: string; today?: string },
): Promise<CloseSummary> {
  requireOperator(principal, 'pay', 'Closing a month');
  const through = monthOf(`${month}-01`);
  if (through >= monthOf(today)) {
    throw badRequest('month', `${month} is not over yet: a month can be closed from the first day of the next.`);
  }
  const db = await getDb();
  // Two closes at once: the later one's snapshot misses the earlier's statements and its insert conflicts;
  // once more, it sees them and has nothing left to do.
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => closeThrough(tx, principal, through), { isolationLevel: 'repeatable read' });
    } catch (err) {
      if (attempt >= 3 || !isConflict(err)) throw err;
    }
  }
}

/** The close in the caller's transaction (the demo seed's), through `through` (`YYYY-MM-01`). */
export async function closeThrough(tx: Tx, principal: Principal, through: string): Promise<CloseSummary> {
  const rules = payoutRules();
  const [ledgers, publishers] = await Promise.all([
    readLedgers(tx, { accountId: null, through }),
    tx.select({ id: users.id }).from(users).where(eq(users.role, 'publisher')),
  ]);
  const drafts: { accountId: string; draft: StatementDraft }[] = [];
  for (const { id } of publishers) {
    const ledger = ledgers.byAccount.get(id);
    if (!ledger) continue;
    for (const draft of draftStatements({ ...ledger, siteName: ledgers.siteName, through, rules })) {
      drafts.push({ accountId: id, draft });
    }
  }
  await insertStatements(tx, drafts);
  const events: ActivityInput[] = [...groupByAccount(drafts)].map(([accountId, mine]) => ({
    kind: 'statement.finalized',
    accountId,
    details: {
      months: mine.map((d) => monthName(d.month)),
      amountDue: mine.reduce((sum, d) => sum + d.amountDueMicros, 0) / 1_000_000,
    },
  }));
  const summary: CloseSummary = {
    month: monthName(through),
    accounts: events.length,
    statements: drafts.length,
    amountDueMicros: drafts.reduce((sum, { draft }) => sum + draft.amountDueMicros, 0),
  };
  // The operator's own record of the close, also when it found nothing left to close.
  events.push({
    kind: 'statement.finalized',
    accountId: null,
    details: { month: summary.month, accounts: summary.accounts, statements: summary.statements },
  });
  await recordEvents(tx, actorOf(principal), events);
  await alertOnEvents(tx, events);
  return summary;
}

function groupByAccount(drafts: { accountId: string; draft: StatementDraft }[]) {
  const byAccount = new Map<string, StatementDraft[]>();
  for (const { accountId, draft } of drafts) byAccount.set(accountId, [...(byAccount.get(accountId) ?? []), draft]);
  return byAccount;
}

async function insertStatements(tx: Tx, drafts: { accountId: string; draft: StatementDraft }[]) {
  // Ids made here, so that each line names its statement without relying on the order RETURNING gives.
  const rows = drafts.map(({ accountId, draft: { lines, ...figures } }) => ({
    id: randomUUID(),
    accountId,
    figures,
    lines,
  }));
  for (let i = 0; i < rows.length; i += CHUNK) {
    await tx
      .insert(statements)
      .values(rows.slice(i, i + CHUNK).map(({ id, accountId, figures }) => ({ id, accountId, ...figures })));
  }
  const lines = rows.flatMap(({ id, lines }) => lines.map((line) => ({ ...line, statementId: id })));
  for (let i = 0; i < lines.length; i += CHUNK) await tx.insert(statementLines).values(lines.slice(i, i + CHUNK));
}

/** A unique violation or a serialization failure: another close committed first. */
function isConflict(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === '23505' || code === '40001') return true;
  }
  return false;
}

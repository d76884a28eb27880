/**
 * Recording payments, one at a time (the admin's button, `npm run statements -- pay`) or from a CSV file of
 * `account, month, amount, paid_at, reference`: each must pay a finalized statement's whole amount due, to the
 * cent, once. A file with any line that does not is refused whole, every such line listed by its number.
 */
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { and, eq, inArray, or } from 'drizzle-orm';
import { getDb, type Tx } from '@/db/client';
import { users } from '@/db/schema';
import { payments, statements } from '@/db/schema-payments';
import { alertOnEvents } from '@/lib/alerts';
import { actorOf, recordEvents } from '@/lib/activity';
import { requireOperator, type Principal } from '@/lib/access';
import { isDay, isUuid, todayUtc } from '@/lib/query';
import { conflict, ValidationError, type FieldError } from '@/lib/shared/errors';
import { dollars } from '@/lib/shared/money';
import { isMonthName, monthFromName, monthLabel } from './months';

/** A payment as the operator gives it: the account by id or e-mail, the month `YYYY-MM`, dollars and cents. */
export interface PaymentEntry {
  account: string;
  month: string;
  amount: string;
  paidAt: string;
  reference: string;
}

export interface RecordedPayments {
  payments: number;
  amount: string;
}

const COLUMNS = ['account', 'month', 'amount', 'paid_at', 'reference'] as const;
const REFERENCE_MAX = 200;

/** Records the payments, all or none; `line` numbers the entries in errors when they come from a file. */
export async function recordPayments(
  principal: Principal,
  entries: PaymentEntry[],
  { fromFile = false, today = todayUtc() }: { fromFile?: boolean; today?: string } = {},
): Promise<RecordedPayments> {
  requireOperator(principal, 'pay', 'Recording payments');
  if (entries.length === 0) throw new ValidationError([{ parameter: 'file', detail: 'has no payments' }]);
  const db = await getDb();
  try {
    return await db.transaction(async (tx) => {
      const matched = await matchStatements(tx, entries, { fromFile, today });
      await tx.insert(payments).values(matched.map((m) => m.payment));
      const events = matched.map(({ payment, label }) => ({
        kind: 'payment.recorded' as const,
        accountId: payment.accountId,
        subjectId: payment.statementId,
        details: {
          month: label,
          amount: dollars(payment.amountMicros),
          paidOn: payment.paidOn,
          reference: payment.reference,
        },
      }));
      await recordEvents(tx, actorOf(principal), events);
      await alertOnEvents(tx, events);
      return {
        payments: matched.length,
        amount: dollars(matched.reduce((sum, m) => sum + m.payment.amountMicros, 0)),
      };
    });
  } catch (err) {
    // Recorded meanwhile by someone else: the unique key on the statement stops the second payment.
    if ((err as { cause?: { code?: string } }).cause?.code === '23505') {
      throw conflict('A payment of one of these statements was recorded meanwhile; nothing was recorded.');
    }
    throw err;
  }
}

/** Reads a CSV of payments (a header line naming the columns, then one payment per line). */
export function parsePaymentsCsv(text: string): PaymentEntry[] {
  let records: string[][];
  try {
    records = parse(text, { skip_empty_lines: true, trim: true, relax_column_count: true });
  } catch (err) {
    throw new ValidationError([{ parameter: 'file', detail: `is not CSV: ${(err as Error).message}` }]);
  }
  const [header = [], ...lines] = records;
  const names = header.map((h) => h.toLowerCase());
  if (COLUMNS.some((c, i) => names[i] !== c) || names.length !== COLUMNS.length) {
    throw new ValidationError([
      { parameter: 'file', line: 1, detail: `the header must be ${COLUMNS.join(',')}; it is ${header.join(',')}` },
    ]);
  }
  return lines.map(([account = '', month = '', amount = '', paidAt = '', reference = '']) => ({
    account,
    month,
    amount,
    paidAt,
    reference,
  }));
}

interface Matched {
  payment: typeof payments.$inferInsert & { amountMicros: number; accountId: string; statementId: string };
  label: string;
}

async function matchStatements(
  tx: Tx,
  entries: PaymentEntry[],
  { fromFile, today }: { fromFile: boolean; today: string },
): Promise<Matched[]> {
  const keys = entries.map((e) => e.account.trim().toLowerCase());
  const accounts = await tx
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(and(eq(users.role, 'publisher'), or(inArray(users.email, keys), inArray(users.id, keys.filter(isUuid)))));
  const accountOf = (key: string) => accounts.find((a) => a.id === key || a.email === key);
  const months = [
    ...new Set(
      entries
        .map((e) => e.month)
        .filter(isMonthName)
        .map(monthFromName),
    ),
  ];
  const found =
    accounts.length && months.length
      ? await tx
          .select({ statement: statements, paidOn: payments.paidOn, paidRef: payments.reference })
          .from(statements)
          .leftJoin(payments, eq(payments.statementId, statements.id))
          .where(
            and(
              inArray(
                statements.accountId,
                accounts.map((a) => a.id),
              ),
              inArray(statements.month, months),
            ),
          )
      : [];

  const errors: FieldError[] = [];
  const matched: Matched[] = [];
  const seen = new Map<string, number>();
  entries.forEach((entry, i) => {
    const line = fromFile ? i + 2 : undefined; // the header is line 1
    const fail = (parameter: string, detail: string) => errors.push({ parameter, ...(line ? { line } : {}), detail });
    const account = accountOf(keys[i]);
    if (!account)
      return fail('account', `no publisher account ${JSON.stringify(entry.account)} (give its id or e-mail)`);
    if (!isMonthName(entry.month))
      return fail('month', `must be a month like 2026-10, got ${JSON.stringify(entry.month)}`);
    const label = `${monthLabel(monthFromName(entry.month))} of ${account.name}`;
    const row = found.find(
      (f) => f.statement.accountId === account.id && f.statement.month === monthFromName(entry.month),
    );
    if (!row) return fail('month', `${label} is not finalized: close the month first`);
    const { statement } = row;
    if (row.paidOn) return fail('month', `${label} was paid already, on ${row.paidOn} (${row.paidRef})`);
    if (statement.amountDueMicros <= 0)
      return fail('month', `nothing is due on ${label}: its balance was carried over`);
    if (entry.amount.trim() !== dollars(statement.amountDueMicros)) {
      return fail(
        'amount',
        `${JSON.stringify(entry.amount)} does not match the amount due on ${label}, ${dollars(statement.amountDueMicros)}`,
      );
    }
    if (!isDay(entry.paidAt) || entry.paidAt > today) {
      return fail('paid_at', `must be a day like ${today}, not after today; got ${JSON.stringify(entry.paidAt)}`);
    }
    const reference = entry.reference.trim();
    if (!reference || reference.length > REFERENCE_MAX)
      return fail('reference', `must be 1 to ${REFERENCE_MAX} characters`);
    const earlier = seen.get(statement.id);
    if (earlier !== undefined)
      return fail('month', `pays ${label} again (as ${fromFile ? `line ${earlier}` : 'another entry'} does)`);
    seen.set(statement.id, line ?? i + 1);
    matched.push({
      payment: {
        id: randomUUID(),
        statementId: statement.id,
        accountId: account.id,
        amountMicros: statement.amountDueMicros,
        paidOn: entry.paidAt,
        reference,
      },
      label,
    });
  });
  if (errors.length > 0) {
    const detail = fromFile
      ? `${errors.length} of ${entries.length} lines do not match a finalized, unpaid statement; nothing was recorded.`
      : errors.map((e) => `${e.parameter}: ${e.detail}`).join('; ');
    throw new ValidationError(errors, detail);
  }
  return matched;
}

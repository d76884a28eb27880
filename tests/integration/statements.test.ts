/**
 * Issue 23, points 1 to 3: monthly statements (estimated → finalized → paid), frozen at the close, later
 * changes as adjustment lines on the next open statement, the threshold's carry-over and the payment terms,
 * an idempotent close, and payments one by one or from a CSV refused whole with numbered lines.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '@/db/raw-query';
import { COMMAND_LINE } from '@/lib/access';
import {
  accountLedger,
  balanceOf,
  closeMonth,
  parsePaymentsCsv,
  recordPayments,
  statementOf,
  summaryOf,
} from '@/lib/payments';
import { AppError } from '@/lib/shared/errors';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { sessionPrincipal } from '../support/keys';

const t = useTestDatabase();
const TODAY = '2024-05-10';

let account: { id: string; email: string };
let skyId: string;
let seaId: string;
const principal = () => sessionPrincipal(account.id);
const ledger = () => accountLedger(principal(), TODAY);

beforeAll(async () => {
  account = await createPublisher(t.db, { name: 'Ledger Games' });
  skyId = (await createSite(t.db, account.id, { name: 'Sky' })).id;
  seaId = (await createSite(t.db, account.id, { name: 'Sea' })).id;
  // January $70 (below the $100 threshold), February $80: the carried $70 makes $150 due.
  await createRevenue(t.db, skyId, [
    { day: '2024-01-05', country: 'US', revenueMicros: 50_000_000 },
    { day: '2024-02-05', country: 'US', revenueMicros: 60_000_000 },
    { day: '2024-05-02', country: 'US', revenueMicros: 1_234_567 },
  ]);
  await createRevenue(t.db, seaId, [
    { day: '2024-01-20', country: 'DE', revenueMicros: 20_000_000 },
    { day: '2024-02-20', country: 'DE', revenueMicros: 20_000_000 },
  ]);
});

describe('statements', () => {
  it('are estimates from the first month with revenue through this month until the operator closes them', async () => {
    const view = await ledger();
    expect(view.statements.map((s) => [s.month, s.status])).toEqual([
      ['2024-01-01', 'estimated'],
      ['2024-02-01', 'estimated'],
      ['2024-03-01', 'estimated'],
      ['2024-04-01', 'estimated'],
      ['2024-05-01', 'estimated'],
    ]);
    expect(balanceOf(view)).toMatchObject({ balance: 151.234567, estimated: 151.234567, paidToDate: 0 });
  });

  it('refuses to close a month that is not over', async () => {
    await expect(closeMonth(COMMAND_LINE, { month: '2024-05', today: TODAY })).rejects.toThrow(
      /2024-05 is not over yet/,
    );
  });

  it('close: below the threshold carries over, at or above it is due after the terms; a second close changes nothing', async () => {
    const first = await closeMonth(COMMAND_LINE, { month: '2024-02', today: TODAY });
    expect(first.statements).toBeGreaterThanOrEqual(2);
    const view = await ledger();
    const [jan, feb] = view.statements;
    expect(summaryOf(jan)).toMatchObject({
      month: '2024-01',
      status: 'finalized',
      openingBalance: 0,
      earnings: 70,
      amountDue: 0,
      carriedOver: 70,
      expectedPaymentDate: null,
    });
    expect(summaryOf(feb)).toMatchObject({
      month: '2024-02',
      status: 'finalized',
      openingBalance: 70,
      earnings: 80,
      closingBalance: 150,
      amountDue: 150,
      carriedOver: 0,
      expectedPaymentDate: '2024-03-30', // 29 February + 30 days
    });
    expect(jan.lines.map((l) => [l.kind, l.siteName, l.amountMicros])).toEqual([
      ['earnings', 'Sea', 20_000_000],
      ['earnings', 'Sky', 50_000_000],
    ]);
    const again = await closeMonth(COMMAND_LINE, { month: '2024-02', today: TODAY });
    expect(again).toMatchObject({ accounts: 0, statements: 0, amountDueMicros: 0 });
    expect(balanceOf(await ledger()).nextPayment).toEqual({
      month: '2024-02',
      amount: 150,
      expectedOn: '2024-03-30',
      estimated: false,
    });
  });

  it('a late change to a closed month never alters its statement: an adjustment naming month and site comes next', async () => {
    await createRevenue(t.db, seaId, [{ day: '2024-01-21', country: 'FR', revenueMicros: 3_500_000 }]);
    const view = await ledger();
    const jan = statementOf(view, '2024-01');
    expect(summaryOf(jan).earnings).toBe(70);
    const march = statementOf(view, '2024-03');
    expect(march.status).toBe('estimated');
    expect(march.lines).toEqual([
      { kind: 'adjustment', month: '2024-01-01', siteId: seaId, siteName: 'Sea', amountMicros: 3_500_000 },
    ]);
    await closeMonth(COMMAND_LINE, { month: '2024-03', today: TODAY });
    const closed = statementOf(await ledger(), '2024-03');
    expect(summaryOf(closed)).toMatchObject({ status: 'finalized', adjustments: 3.5, carriedOver: 3.5, amountDue: 0 });
    // …and is settled: the next open statement has no adjustment left.
    expect(statementOf(await ledger(), '2024-04').lines).toEqual([]);
  });

  it('are append-only in the database', async () => {
    // The trigger refuses the owner; the app's own role is refused by PostgreSQL before (CI, app-role.test.ts).
    const refused = { cause: { message: expect.stringMatching(/append-only|permission denied for table/) } };
    await expect(t.db.execute(sql`update statements set earnings_micros = 0`)).rejects.toMatchObject(refused);
    await expect(t.db.execute(sql`delete from statement_lines`)).rejects.toMatchObject(refused);
  });

  it('the earnings of every statement and adjustment plus the estimate equal every row; the balance that minus payments', async () => {
    const [{ total }] = await queryRows<{ total: string }>(
      t.db,
      sql`select sum(revenue_micros)::text as total from revenue_daily where user_id = ${account.id}`,
    );
    const view = await ledger();
    const earned = view.statements.reduce((sum, s) => sum + s.earningsMicros + s.adjustmentsMicros, 0);
    expect(earned).toBe(Number(total));
    expect(balanceOf(view).balance).toBe(Number(total) / 1e6);
  });
});

describe('payments', () => {
  it('one by one: the whole amount due of a finalized statement, once', async () => {
    const entry = {
      account: account.email,
      month: '2024-02',
      amount: '150.00',
      paidAt: '2024-03-29',
      reference: 'T-1',
    };
    await expect(recordPayments(COMMAND_LINE, [{ ...entry, amount: '149.99' }], { today: TODAY })).rejects.toThrow(
      /does not match the amount due on February 2024 of Ledger Games, 150.00/,
    );
    await expect(recordPayments(sessionPrincipal(account.id), [entry])).rejects.toThrow(
      /for the platform's operators only/,
    );
    expect(await recordPayments(COMMAND_LINE, [entry], { today: TODAY })).toEqual({ payments: 1, amount: '150.00' });
    await expect(recordPayments(COMMAND_LINE, [entry], { today: TODAY })).rejects.toThrow(
      /was paid already, on 2024-03-29 \(T-1\)/,
    );
    const view = await ledger();
    expect(summaryOf(statementOf(view, '2024-02'))).toMatchObject({
      status: 'paid',
      paidAt: '2024-03-29',
      paymentReference: 'T-1',
    });
    expect(balanceOf(view)).toMatchObject({ paidToDate: 150, nextPayment: null });
    await expect(t.db.execute(sql`update payments set reference = 'changed'`)).rejects.toMatchObject({
      // The app's own role (CI) is refused by PostgreSQL before the trigger could.
      cause: { message: expect.stringMatching(/payments is append-only: UPDATE refused|permission denied for table/) },
    });
  });

  it('from a CSV: refused whole, each bad line by its number', async () => {
    const csv = [
      'account,month,amount,paid_at,reference',
      `${account.email},2024-01,70.00,2024-02-28,X`,
      `nobody@example.com,2024-02,1.00,2024-03-01,Y`,
      `${account.id},2024-04,1.00,2024-05-01,Z`,
      `${account.id},2024-13,1.00,2024-05-01,Z`,
    ].join('\n');
    const err = await recordPayments(COMMAND_LINE, parsePaymentsCsv(csv), { fromFile: true, today: TODAY }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect(err.detail).toBe('4 of 4 lines do not match a finalized, unpaid statement; nothing was recorded.');
    expect(
      err.errors.map((e: { line: number; parameter: string; detail: string }) => [e.line, e.parameter, e.detail]),
    ).toEqual([
      [2, 'month', 'nothing is due on January 2024 of Ledger Games: its balance was carried over'],
      [3, 'account', 'no publisher account "nobody@example.com" (give its id or e-mail)'],
      [4, 'month', 'April 2024 of Ledger Games is not finalized: close the month first'],
      [5, 'month', 'must be a month like 2026-10, got "2024-13"'],
    ]);
    expect(() => parsePaymentsCsv('who,when\nx,y')).toThrow(/header must be account,month,amount,paid_at,reference/);
  });
});

/**
 * Issue 23, point 6: for any sequence of revenue imports (inserts, overwrites, deletes), month-end closes and
 * payments, drawn by fast-check and run against the database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * a finalized statement's earnings equal the totals report for its month at the close, to the micro-dollar;
 * all statements' earnings and adjustments plus the open estimate equal the sum of every row, and the balance
 * that minus the payments; the statements chain (opening = the carried balance before), never change once
 * finalized (a paid one only says so), and closing a month again writes nothing.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryRows } from '@/db/raw-query';
import { addRevenueMonths } from '@/db/revenue-months';
import { revenueDaily } from '@/db/schema';
import { COMMAND_LINE } from '@/lib/access';
import {
  accountLedger,
  balanceOf,
  closeMonth,
  lastDayOf,
  nextMonth,
  recordPayments,
  type AccountStatement,
} from '@/lib/payments';
import { getTotals } from '@/lib/reports';
import { dollars } from '@/lib/shared/money';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { sessionPrincipal } from '../support/keys';

const t = useTestDatabase();
const TODAY = '2025-07-15';
const PAID_AT = '2025-07-01';

/** Month starts, month ends and days between, January to mid-July 2025 (the open month). */
const DAYS = [
  ...['01', '02', '03', '04', '05', '06'].flatMap((m) => {
    const first = `2025-${m}-01`;
    return [first, `2025-${m}-14`, lastDayOf(first)];
  }),
  '2025-07-01',
  '2025-07-14',
];
const COUNTRY = fc.constantFrom('US', 'DE', 'FR');
/** Row amounts around the $100 threshold, small ones that add up below it, and exact edges. */
const MICROS = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 200_000_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 40_000_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 1, 99_999_999, 100_000_000, 100_000_001) },
);
/** An import: rows inserted, or overwritten where the site, day and country have one already. */
const ROW = fc.record({ site: fc.nat(2), day: fc.constantFrom(...DAYS), country: COUNTRY, micros: MICROS });
const OPERATION = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('import' as const), rows: fc.array(ROW, { minLength: 1, maxLength: 4 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('finalize' as const),
      month: fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom('01', '02', '03') },
        { weight: 1, arbitrary: fc.constantFrom('04', '05', '06') },
      ),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('pay' as const), pick: fc.nat() }) },
);

/** What a finalized statement says, which must never change. */
const frozen = (s: AccountStatement) => ({
  month: s.month,
  openingMicros: s.openingMicros,
  earningsMicros: s.earningsMicros,
  adjustmentsMicros: s.adjustmentsMicros,
  amountDueMicros: s.amountDueMicros,
  carriedMicros: s.carriedMicros,
  thresholdMicros: s.thresholdMicros,
  dueOn: s.dueOn,
  finalizedAt: s.finalizedAt,
  lines: s.lines.map(({ kind, month, siteId, siteName, amountMicros }) => ({
    kind,
    month,
    siteId,
    siteName,
    amountMicros,
  })),
});

async function sqlSum(query: SQL): Promise<number> {
  const [{ total }] = await queryRows<{ total: string }>(t.db, query);
  return Number(total);
}
const revenueOf = (accountId: string, from = '0001-01-01', to = '9999-12-31') =>
  sqlSum(sql`select coalesce(sum(revenue_micros), 0)::text as total from revenue_daily
             where user_id = ${accountId} and day between ${from} and ${to}`);
const paymentsOf = (accountId: string) =>
  sqlSum(sql`select coalesce(sum(amount_micros), 0)::text as total from payments where account_id = ${accountId}`);

describe('statements under any sequence of imports, closes and payments', () => {
  it('add up to every row, chain, stay frozen once finalized, and match the totals report at the close', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 3 }),
        fc.array(OPERATION, { minLength: 6, maxLength: 12 }),
        async (siteCount, operations) => {
          const run = ++runs;
          const account = await createPublisher(t.db, { name: `Property Ledger ${run} ${Date.now()}` });
          const siteIds: string[] = [];
          for (let i = 0; i < siteCount; i++) {
            siteIds.push((await createSite(t.db, account.id, { name: `Site ${String.fromCharCode(65 + i)}` })).id);
          }
          const principal = sessionPrincipal(account.id);
          const rows = new Map<string, { siteId: string; day: string; country: string; revenueMicros: number }>();
          const seen = new Map<string, ReturnType<typeof frozen>>();
          const paid = new Map<string, string>(); // month → reference
          let paidMicros = 0;

          const check = async (step: string) => {
            const view = await accountLedger(principal, TODAY);
            const total = await revenueOf(account.id);
            expect(total, step).toBe([...rows.values()].reduce((sum, r) => sum + r.revenueMicros, 0));
            // 1. Statements' earnings and adjustments plus the estimate = every row.
            const earned = view.statements.reduce((sum, s) => sum + s.earningsMicros + s.adjustmentsMicros, 0);
            expect(earned, step).toBe(total);
            // 2. The balance is that minus the payments.
            expect(await paymentsOf(account.id), step).toBe(paidMicros);
            expect(Math.round(balanceOf(view).balance * 1e6), step).toBe(total - paidMicros);
            // 5. Each statement balances, and opens with what the one before carried.
            view.statements.forEach((s, i) => {
              const before = view.statements[i - 1];
              expect(s.amountDueMicros + s.carriedMicros, `${step} ${s.month}`).toBe(
                s.openingMicros + s.earningsMicros + s.adjustmentsMicros,
              );
              expect(s.openingMicros, `${step} ${s.month} opening`).toBe(before?.carriedMicros ?? 0);
              if (before) expect(s.month, step).toBe(nextMonth(before.month));
              if (before?.status === 'estimated') expect(s.status, step).toBe('estimated');
            });
            // 3. Finalized statements never change; a paid one only says so.
            const byMonth = new Map(view.statements.map((s) => [s.month, s]));
            for (const [month, figures] of seen) {
              const s = byMonth.get(month);
              expect(s && frozen(s), `${step}: ${month} changed`).toEqual(figures);
              expect(s!.status, step).toBe(paid.has(month) ? 'paid' : 'finalized');
              expect(s!.paymentReference, step).toBe(paid.get(month) ?? null);
            }
          };

          for (const [n, op] of operations.entries()) {
            const step = `step ${n + 1} ${JSON.stringify(op)}`;
            if (op.kind === 'import') {
              const batch = new Map(
                op.rows.map(({ site, day, country, micros }) => {
                  const row = { siteId: siteIds[site % siteIds.length], day, country, revenueMicros: micros };
                  return [`${row.siteId}|${day}|${country}`, row];
                }),
              );
              const days = [...batch.values()].map((row) => row.day).sort();
              await addRevenueMonths(t.db, days[0], days[days.length - 1]);
              await t.db
                .insert(revenueDaily)
                .values([...batch.values()].map((row) => ({ ...row, userId: account.id })))
                .onConflictDoUpdate({
                  target: [revenueDaily.siteId, revenueDaily.day, revenueDaily.country],
                  set: { revenueMicros: sql`excluded.revenue_micros`, updatedAt: new Date() },
                });
              for (const [key, row] of batch) rows.set(key, row);
            } else if (op.kind === 'delete') {
              const keys = [...rows.keys()];
              if (keys.length === 0) continue;
              const key = keys[op.pick % keys.length];
              const row = rows.get(key)!;
              await t.db
                .delete(revenueDaily)
                .where(
                  and(
                    eq(revenueDaily.siteId, row.siteId),
                    eq(revenueDaily.day, row.day),
                    eq(revenueDaily.country, row.country),
                  ),
                );
              rows.delete(key);
            } else if (op.kind === 'finalize') {
              const month = `2025-${op.month}`;
              const summary = await closeMonth(COMMAND_LINE, { month, today: TODAY });
              // 6. Closing the same month again writes nothing (for any account).
              expect((await closeMonth(COMMAND_LINE, { month, today: TODAY })).statements, step).toBe(0);
              const view = await accountLedger(principal, TODAY);
              const fresh = view.statements.filter((s) => s.status !== 'estimated' && !seen.has(s.month));
              expect(summary.statements, step).toBeGreaterThanOrEqual(fresh.length);
              // Every month through the closed one is closed now.
              for (const s of view.statements)
                if (s.month <= `${month}-01`) expect(s.status, step).not.toBe('estimated');
              // 4. A newly finalized statement's earnings are its month's totals at the close, to the micro-dollar.
              for (const s of fresh) {
                const to = lastDayOf(s.month);
                expect(s.earningsMicros, `${step} ${s.month} vs SQL`).toBe(await revenueOf(account.id, s.month, to));
                const totals = await getTotals(principal, { siteIds: null, fromDate: s.month, toDate: to });
                expect(totals.totalRevenue, `${step} ${s.month} vs totals report`).toBe(s.earningsMicros / 1e6);
                seen.set(s.month, frozen(s));
              }
            } else {
              const view = await accountLedger(principal, TODAY);
              const due = view.statements.filter((s) => s.status === 'finalized' && s.amountDueMicros > 0);
              if (due.length === 0) continue;
              const s = due[op.pick % due.length];
              const reference = `P-${run}-${n}`;
              const entry = {
                account: account.id,
                month: s.month.slice(0, 7),
                amount: dollars(s.amountDueMicros),
                paidAt: PAID_AT,
                reference,
              };
              expect(await recordPayments(COMMAND_LINE, [entry], { today: TODAY }), step).toEqual({
                payments: 1,
                amount: dollars(s.amountDueMicros),
              });
              paid.set(s.month, reference);
              paidMicros += s.amountDueMicros;
            }
            await check(step);
          }
        },
      ),
      { numRuns: 20 },
    );
  }, 120_000);
});

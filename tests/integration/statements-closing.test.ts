/**
 * Issue 40, point 4: a statement's closing balance is written once, `closingOf` (lib/payments/ledger.ts). For
 * random ledgers (months of revenue, a close, then later changes to closed months, which come as adjustments,
 * negative ones included), every copy of it agrees with the function: the statements as read, the list's SQL
 * (sorting and filtering by closingBalance), its JSON, the CSV file, and the split into amount due and carried.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addRevenueMonths } from '@/db/revenue-months';
import { revenueDaily } from '@/db/schema';
import { COMMAND_LINE } from '@/lib/access';
import { QueryParams, readQuery } from '@/lib/query';
import {
  accountLedger,
  closingOf,
  closeMonth,
  listStatements,
  statementCsv,
  statementsQuery,
  type AccountStatement,
} from '@/lib/payments';
import { csvCell } from '@/lib/shared/csv';
import { dollars, usdFromMicros } from '@/lib/shared/money';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { sessionPrincipal } from '../support/keys';

const t = useTestDatabase();
const TODAY = '2025-07-15';

const MONTH = fc.constantFrom('01', '02', '03', '04', '05', '06');
/** Around the $100 threshold, and zero: a closed month's revenue going to zero is a negative adjustment. */
const MICROS = fc.oneof(
  fc.integer({ min: 0, max: 150_000_000 }),
  fc.constantFrom(0, 1, 99_999_999, 100_000_000, 100_000_001),
);
const ROW = fc.record({ site: fc.nat(1), month: MONTH, micros: MICROS });

describe('the closing balance, written once', () => {
  it('is the same in the statements, the list’s SQL, the JSON and the CSV, for any ledger', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(ROW, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('01', '02', '03', '04', '05'),
        fc.array(ROW, { maxLength: 4 }),
        async (before, closed, after) => {
          const account = await createPublisher(t.db, { name: `Closing ${++runs} ${Date.now()}` });
          const siteIds = [
            (await createSite(t.db, account.id, { name: 'Site A' })).id,
            (await createSite(t.db, account.id, { name: 'Site B' })).id,
          ];
          const upsert = async (rows: { site: number; month: string; micros: number }[]) => {
            if (rows.length === 0) return;
            const byKey = new Map(
              rows.map((r) => [`${r.site}|${r.month}`, { siteId: siteIds[r.site], day: `2025-${r.month}-10` }]),
            );
            const values = [...byKey.entries()].map(([key, row]) => ({
              ...row,
              country: 'US',
              userId: account.id,
              revenueMicros: rows.findLast((r) => `${r.site}|${r.month}` === key)!.micros,
            }));
            await addRevenueMonths(t.db, '2025-01-01', '2025-06-30');
            await t.db
              .insert(revenueDaily)
              .values(values)
              .onConflictDoUpdate({
                target: [revenueDaily.siteId, revenueDaily.day, revenueDaily.country],
                set: { revenueMicros: sql`excluded.revenue_micros`, updatedAt: new Date() },
              });
          };
          await upsert(before);
          await closeMonth(COMMAND_LINE, { month: `2025-${closed}`, today: TODAY });
          // Changes to closed months: adjustments on the first open statement.
          await upsert(after.map((r) => ({ ...r, month: r.month <= closed ? r.month : closed })));

          const principal = sessionPrincipal(account.id);
          const view = await accountLedger(principal);
          const list = async (query: string) =>
            (await listStatements(principal, readQuery(statementsQuery, QueryParams.from(new URLSearchParams(query)))))
              .data;
          const monthsOf = (statements: { month: string }[]) => statements.map((s) => s.month.slice(0, 7));
          const byClosing = (direction: 1 | -1) => (a: AccountStatement, b: AccountStatement) =>
            direction * (closingOf(a) - closingOf(b)) || direction * a.month.localeCompare(b.month);

          for (const s of view.statements) {
            expect(s.closingMicros, s.month).toBe(closingOf(s));
            expect(s.amountDueMicros + s.carriedMicros, s.month).toBe(closingOf(s));
            expect(statementCsv(view, s), s.month).toContain(
              `\nClosing balance,,,,${csvCell(dollars(closingOf(s)))}\n`,
            );
          }
          const all = await list('pageSize=100');
          expect(all.map((s) => s.closingBalance)).toEqual(
            [...view.statements].reverse().map((s) => usdFromMicros(closingOf(s))),
          );
          // The SQL's closingBalance orders and filters as the function does.
          for (const [direction, order] of [[1, 'asc'] as const, [-1, 'desc'] as const]) {
            expect(monthsOf(await list(`pageSize=100&sortBy=closingBalance&sortDirection=${order}`))).toEqual(
              monthsOf([...view.statements].sort(byClosing(direction))),
            );
          }
          for (const [op, keep] of [
            ['>', (m: number) => m > 0],
            ['<', (m: number) => m < 0],
          ] as const) {
            expect(monthsOf(await list(`pageSize=100&sortBy=month&Filter=closingBalance${op}0`))).toEqual(
              monthsOf(view.statements.filter((s) => keep(closingOf(s)))),
            );
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});

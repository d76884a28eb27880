/**
 * The month-end close, timed in-process on the bench database: closing last month for every account as loaded
 * (big@example.com with the demo accounts), then again with 1,000 more accounts. Each close runs in a
 * transaction that is rolled back, so the bench leaves no statement behind (statements are append-only).
 */
import type { Tx } from '@/db/client';
import { addRevenueMonths } from '@/db/revenue-months';
import { revenueDaily, sites, users } from '@/db/schema';
import { COMMAND_LINE } from '@/lib/access';
import { closeThrough, monthOf, nextMonth, previousMonth } from '@/lib/payments';
import { todayUtc } from '@/lib/query';
import { rolledBack } from './rolled-back';

export interface CloseFigure {
  name: string;
  accounts: number;
  statements: number;
  seconds: number;
}

const ACCOUNTS = 1_000;
const MONTHS = 13;

/** 1,000 publisher accounts of two sites, each with a row in the middle of each of the last 13 months. */
async function addAccounts(tx: Tx, through: string) {
  const run = Date.now().toString(36);
  const accounts = await tx
    .insert(users)
    .values(Array.from({ length: ACCOUNTS }, (_, i) => ({ email: `close-${run}-${i}@bench.invalid`, name: `Close ${i}` })))
    .returning({ id: users.id });
  const made = await tx
    .insert(sites)
    .values(accounts.flatMap(({ id }, i) => [0, 1].map((n) => ({ userId: id, name: `Close ${i}.${n}`, url: `https://close-${run}-${i}-${n}.invalid` }))))
    .returning({ id: sites.id, userId: sites.userId });
  let month = through;
  for (let i = 1; i < MONTHS; i++) month = previousMonth(month);
  const rows = [];
  for (; month <= through; month = nextMonth(month)) {
    for (const site of made) {
      rows.push({ siteId: site.id, userId: site.userId, day: `${month.slice(0, 8)}15`, country: 'US', revenueMicros: 40_000_000 + (rows.length % 97) * 1_000_000 });
    }
  }
  await addRevenueMonths(tx, rows[0].day, rows[rows.length - 1].day);
  for (let i = 0; i < rows.length; i += 5_000) await tx.insert(revenueDaily).values(rows.slice(i, i + 5_000));
}

async function timedClose(name: string, through: string, prepare?: (tx: Tx) => Promise<void>): Promise<CloseFigure> {
  return rolledBack(
    async (tx) => {
      if (prepare) await prepare(tx);
      const started = performance.now();
      const summary = await closeThrough(tx, COMMAND_LINE, through);
      return { name, accounts: summary.accounts, statements: summary.statements, seconds: (performance.now() - started) / 1000 };
    },
    { isolationLevel: 'repeatable read' },
  );
}

export async function benchMonthEndClose(today = todayUtc()): Promise<CloseFigure[]> {
  const through = previousMonth(monthOf(today));
  return [
    await timedClose('close last month: every account as loaded (big@example.com)', through),
    await timedClose(`close last month: + ${ACCOUNTS.toLocaleString('en-US')} accounts`, through, (tx) => addAccounts(tx, through)),
  ];
}

/** The closes as the README's Markdown table. */
export function closeTable(figures: CloseFigure[]): string {
  return [
    '| month-end close (`npm run statements -- finalize`) | accounts | statements | seconds |',
    '| --- | ---: | ---: | ---: |',
    ...figures.map((f) => `| ${f.name} | ${f.accounts.toLocaleString('en-US')} | ${f.statements.toLocaleString('en-US')} | ${f.seconds.toFixed(2)} |`),
  ].join('\n');
}

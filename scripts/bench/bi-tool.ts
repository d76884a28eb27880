/**
 * A BI tool's day: 10 API keys of the account at once, each asking 20 windows (10–90 sites, 30–730 days, its own
 * fixed seed) for totals and by-country, the two reports of a window side by side, as a dashboard tile pair
 * does: exactly the key's two report slots (lib/http/report-slots.ts), so any 429 is a slot or limit refused
 * beyond what the API documents. Every answer must be 2xx; a sample of windows is then checked against the
 * account's rows in revenue_daily, summed in SQL: the same integers, and revenue as `usdFromMicros` of them.
 */
import { sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { queryRows } from '@/db/raw-query';
import { usdFromMicros } from '@/lib/shared/money';
import type { Access, Dataset } from './fixtures';
import { probe, summarize, type Stats } from './measure';
import { type Window, windowParams, windowsOf } from './windows';

const KEYS = 10;
const WINDOWS_PER_KEY = 20;
/** Every how many windows of a key is checked against the rows (2 of each key's 20). */
const CHECK_EVERY = 10;
/** Above the countries any window has, so one page holds them all (PAGE_SIZE_MAX is 1,000). */
const PAGE_SIZE = 1000;

interface CountryRow {
  country: string | null;
  revenueAmount: number;
  impressions: number;
  adRequests: number;
}
interface Totals {
  totalImpressions: number;
  totalRequests: number;
  totalRevenue: number;
}
interface Answered {
  window: Window;
  totals: Totals;
  byCountry: CountryRow[];
}

export interface BiToolFigure extends Stats {
  windows: number;
  checked: number;
  mismatches: string[];
  /** p95 as a multiple of the auth floor's p95 at concurrency 10 in the same run. */
  p95VsAuthFloor: number;
}

async function ask(origin: string, path: string, apiKey: string, seen: { ms: number[]; codes: Record<string, number> }) {
  const started = performance.now();
  const { status, body } = await probe(origin + path, { 'x-api-key': apiKey });
  seen.ms.push(performance.now() - started);
  seen.codes[status] = (seen.codes[status] ?? 0) + 1;
  return status >= 200 && status <= 299 ? JSON.parse(body) : null;
}

/** One key's windows in turn, each window's two reports at once. */
async function replayKey(origin: string, apiKey: string, windows: Window[], seen: Parameters<typeof ask>[3]) {
  const answered: Answered[] = [];
  for (const window of windows) {
    const params = new URLSearchParams(windowParams(window));
    const paged = new URLSearchParams({ ...windowParams(window), pageSize: String(PAGE_SIZE) });
    const [totals, byCountry] = await Promise.all([
      ask(origin, `/api/v1/reports/totals?${params}`, apiKey, seen),
      ask(origin, `/api/v1/reports/by-country?${paged}`, apiKey, seen),
    ]);
    if (totals && byCountry) answered.push({ window, totals, byCountry: byCountry.data });
  }
  return answered;
}

/** The window summed from revenue_daily, by country. */
async function rowsOf(userId: string, w: Window) {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    return queryRows<{ country: string | null; impressions: string; ad_requests: string; micros: string }>(
      tx,
      sql`select country, sum(impressions) as impressions, sum(ad_requests) as ad_requests, sum(revenue_micros) as micros
          from revenue_daily
          where user_id = ${userId} and day between ${w.fromDate} and ${w.toDate}
            and site_id in (${sql.join(w.siteIds.map((id) => sql`${id}::uuid`), sql`, `)})
          group by country`,
    );
  });
}

/** What differs between an answer and the rows, as lines naming the window and the figure. */
async function check(userId: string, answer: Answered): Promise<string[]> {
  const rows = await rowsOf(userId, answer.window);
  const where = `${answer.window.fromDate}…${answer.window.toDate}, ${answer.window.siteIds.length} sites`;
  const problems: string[] = [];
  const expect = (what: string, got: number, want: number) => {
    if (got !== want) problems.push(`${where}: ${what} is ${got}, the rows say ${want}`);
  };
  const byCountry = new Map(answer.byCountry.map((r) => [r.country, r]));
  expect('the number of countries', answer.byCountry.length, rows.length);
  const sums = { impressions: 0, adRequests: 0, micros: 0 };
  for (const row of rows) {
    const [impressions, adRequests, micros] = [row.impressions, row.ad_requests, row.micros].map(Number);
    sums.impressions += impressions;
    sums.adRequests += adRequests;
    sums.micros += micros;
    const got = byCountry.get(row.country);
    if (!got) {
      problems.push(`${where}: country ${row.country} is missing`);
      continue;
    }
    expect(`${row.country} impressions`, got.impressions, impressions);
    expect(`${row.country} adRequests`, got.adRequests, adRequests);
    expect(`${row.country} revenueAmount`, got.revenueAmount, usdFromMicros(micros));
  }
  expect('totalImpressions', answer.totals.totalImpressions, sums.impressions);
  expect('totalRequests', answer.totals.totalRequests, sums.adRequests);
  expect('totalRevenue', answer.totals.totalRevenue, usdFromMicros(sums.micros));
  return problems;
}

export async function benchBiTool(
  origin: string,
  dataset: Dataset,
  access: Access,
  today: string,
  authFloorP95: number | undefined,
): Promise<BiToolFigure> {
  const keys = access.keys.slice(0, KEYS);
  if (keys.length < KEYS) throw new Error(`bi-tool: needs ${KEYS} keys, the run has ${keys.length}`);
  const windowsByKey = keys.map((_, k) =>
    windowsOf(today, dataset.siteIds, { sites: [10, 90], days: [30, 730], seed: 100 + k }, WINDOWS_PER_KEY),
  );
  const seen = { ms: [] as number[], codes: {} as Record<string, number> };
  const started = performance.now();
  const answered = await Promise.all(keys.map((key, k) => replayKey(origin, key.apiKey, windowsByKey[k], seen)));
  const elapsedMs = performance.now() - started;
  const stats = summarize({ latenciesMs: seen.ms, statusCodes: seen.codes, failures: 0, elapsedMs });
  // Checked after the load, so the sums do not share the machine with the measured requests.
  const sample = answered.flatMap((list) => list.filter((_, i) => i % CHECK_EVERY === 0));
  const mismatches: string[] = [];
  for (const answer of sample) mismatches.push(...(await check(dataset.principal.userId, answer)));
  return {
    ...stats,
    windows: KEYS * WINDOWS_PER_KEY,
    checked: sample.length,
    mismatches,
    p95VsAuthFloor: authFloorP95 ? stats.p95Ms / authFloorP95 : NaN,
  };
}

/** Why the replay failed (any answer not 2xx, any figure not exact), or null. */
export function biToolProblem(figure: BiToolFigure): string | null {
  const problems: string[] = [];
  if (figure.unexpected > 0) problems.push(`answers other than 2xx: ${JSON.stringify(figure.statusCodes)}`);
  if (figure.mismatches.length > 0) problems.push(`${figure.mismatches.length} figures differ from the rows: ${figure.mismatches.slice(0, 5).join('; ')}`);
  return problems.length > 0 ? `bi-tool: ${problems.join('; ')}` : null;
}

/** The replay as the README's Markdown table. */
export function biToolTable(f: BiToolFigure): string {
  const codes = Object.entries(f.statusCodes)
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ');
  const ratio = Number.isFinite(f.p95VsAuthFloor) ? `${f.p95VsAuthFloor.toFixed(1)} ×` : '–';
  return [
    `| a BI tool's day: ${KEYS} keys × ${WINDOWS_PER_KEY} windows (totals and by-country) | answers | p50 ms | p95 ms | p95 × the auth floor at c10 | windows checked against the rows |`,
    '| --- | --- | ---: | ---: | ---: | ---: |',
    `| 10–90 sites, 30–730 days, a different window each | ${codes} | ${f.p50Ms.toFixed(1)} | ${f.p95Ms.toFixed(1)} | ${ratio} | ${f.checked}, ${f.mismatches.length === 0 ? 'all exact' : `${f.mismatches.length} differences`} |`,
  ].join('\n');
}

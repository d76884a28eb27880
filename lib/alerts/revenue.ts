import { sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { dateArraySql, queryRows } from '@/db/raw-query';
import { addDays } from '@/lib/query';
import { countryName } from '@/lib/shared/countries';
import { formatCents, formatDay, formatPct } from '@/lib/shared/format';
import { usdFromMicros } from '@/lib/shared/money';
import { ALERT_LOOKBACK_DAYS, judgeRevenue, median, REVENUE_BAND, type RevenueJudgement } from './rules';
import { type NewAlert, storeAlerts } from './record';

/** What an import wrote for one account (lib/jobs): the days and sites whose figures changed. */
export interface RevenueWritten {
  accountId: string;
  days: string[];
  /** The sites to judge one by one; the account as a whole is judged too when it has several sites. */
  siteIds: string[];
}

/** Revenue by key (a site id, a country) and day. */
type Series = Map<string, Map<string, number>>;

const ACCOUNT = 'account';
const referenceDays = (day: string) => Array.from({ length: REVENUE_BAND.weeks }, (_, i) => addDays(day, -7 * (i + 1)));

/** The days of `written` that are judged: complete (before today) and recent. */
function daysToJudge(days: readonly string[], today: string): string[] {
  const oldest = addDays(today, -ALERT_LOOKBACK_DAYS);
  return [...new Set(days)].filter((day) => day < today && day >= oldest).sort();
}

/** Each site's revenue and the account's on the days, from the rollup's day rows (one index descent per site). */
async function accountSeries(accountId: string, days: string[]) {
  const db = await getDb();
  const rows = await queryRows<{ key: string | null; name: string | null; day: string; revenue: string }>(
    db,
    sql`select s.id as key, s.name, r.period::text as day, r.revenue_micros as revenue
        from sites s cross join lateral (
          select period, revenue_micros from revenue_rollup r
          where r.user_id = ${accountId} and r.grain = 'd' and r.site_id = s.id and r.country is null
            and r.period = any(${dateArraySql(days)})) r
        where s.user_id = ${accountId}
        union all
        select null, null, period::text, revenue_micros from revenue_rollup
        where user_id = ${accountId} and grain = 'd' and site_id is null and country is null
          and period = any(${dateArraySql(days)})`,
  );
  const names = new Map(rows.flatMap((row) => (row.key ? [[row.key, row.name ?? row.key] as const] : [])));
  return { series: seriesOf(rows, (row) => row.key ?? ACCOUNT), names };
}

/** Rows of (key, day, revenue) as a series by key and day. */
function seriesOf<R extends { day: string; revenue: string }>(rows: R[], keyOf: (row: R) => string): Series {
  const series: Series = new Map();
  for (const row of rows) {
    const key = keyOf(row);
    if (!series.has(key)) series.set(key, new Map());
    series.get(key)!.set(row.day, Number(row.revenue));
  }
  return series;
}

/** One site's revenue by country on the days, from its daily rows. */
async function countrySeries(accountId: string, siteId: string, days: string[]): Promise<Series> {
  const db = await getDb();
  const rows = await queryRows<{ country: string; day: string; revenue: string }>(
    db,
    sql`select country, day::text as day, sum(revenue_micros) as revenue from revenue_daily
        where user_id = ${accountId} and site_id = ${siteId} and day = any(${dateArraySql(days)})
        group by country, day`,
  );
  return seriesOf(rows, (row) => row.country);
}

/** A part that drove the change, in micro-dollars until the alert's details turn it into dollars. */
interface Driver {
  kind: 'site' | 'country';
  id: string;
  name: string;
  expected: number;
  actual: number;
  difference: number;
}

/**
 * The three parts (sites of the account, countries of a site) whose own change went furthest the alert's way:
 * each part's day against the median of its same weekdays (a part without rows that day earned nothing).
 */
function driversOf(parts: Series, day: string, drop: boolean, label: (key: string) => [Driver['kind'], string]) {
  const refs = referenceDays(day);
  return [...parts.entries()]
    .map(([key, byDay]): Driver => {
      const expected = Math.round(median(refs.map((d) => byDay.get(d) ?? 0)));
      const actual = byDay.get(day) ?? 0;
      const [kind, name] = label(key);
      return { kind, id: key, name, expected, actual, difference: actual - expected };
    })
    .filter((part) => (drop ? part.difference < 0 : part.difference > 0))
    .sort((a, b) => (drop ? a.difference - b.difference : b.difference - a.difference))
    .slice(0, 3);
}

function alertOf(
  accountId: string,
  day: string,
  subject: { siteId: string | null; name: string },
  judged: RevenueJudgement & { kind: NonNullable<RevenueJudgement['kind']> },
  drivers: Driver[],
): NewAlert {
  const { expectedMicros: expected, actualMicros: actual } = judged;
  const change = expected === 0 ? null : (actual - expected) / expected;
  const weekday = formatDay(day, { weekday: 'long' });
  const direction = judged.kind === 'revenue.drop' ? 'below' : 'above';
  const most = drivers.map((d) => `${d.name} (${formatCents(d.difference)})`).join(', ');
  return {
    accountId,
    kind: judged.kind,
    dedupeKey: `${judged.kind}:${subject.siteId ?? ACCOUNT}:${day}`,
    siteId: subject.siteId,
    day,
    message:
      `${subject.name} earned ${formatCents(actual)} on ${formatDay(day, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' })}, ` +
      `${change === null ? '' : `${formatPct(Math.abs(change))} `}${direction} the usual ${formatCents(expected)} ` +
      `(median of the ${REVENUE_BAND.weeks} ${weekday}s before)${most ? `; most of the difference: ${most}` : ''}.`,
    details: {
      expected: usdFromMicros(expected),
      actual: usdFromMicros(actual),
      change,
      bandLow: usdFromMicros(judged.lowMicros),
      bandHigh: usdFromMicros(judged.highMicros),
      drivers: drivers.map((d) => ({
        ...d,
        expected: usdFromMicros(d.expected),
        actual: usdFromMicros(d.actual),
        difference: usdFromMicros(d.difference),
      })),
    },
  };
}

/**
 * Looks for `revenue.drop` and `revenue.spike` on the written days: the account as a whole, and each written
 * site with enough history, each against its own same weekdays. Stores what it finds (once: ./record.ts);
 * returns how many alerts were new.
 */
export async function evaluateRevenue(written: RevenueWritten, today: string): Promise<number> {
  const days = daysToJudge(written.days, today);
  if (days.length === 0) return 0;
  const wanted = [...new Set(days.flatMap((day) => [day, ...referenceDays(day)]))];
  const { series, names } = await accountSeries(written.accountId, wanted);
  const sites = new Map([...series].filter(([key]) => key !== ACCOUNT));
  const found: NewAlert[] = [];
  for (const day of days) {
    // The account as a whole unless it is one site: that site's alert says it all.
    for (const key of [...(sites.size > 1 ? [ACCOUNT] : []), ...new Set(written.siteIds)]) {
      const byDay = series.get(key);
      const actual = byDay?.get(day);
      if (!byDay || actual === undefined) continue;
      const history = referenceDays(day).flatMap((d) => (byDay.has(d) ? [byDay.get(d)!] : []));
      const judged = judgeRevenue(actual, history);
      if (!judged?.kind) continue;
      const drop = judged.kind === 'revenue.drop';
      const drivers =
        key === ACCOUNT
          ? driversOf(sites, day, drop, (id) => ['site', names.get(id) ?? id])
          : driversOf(await countrySeries(written.accountId, key, [day, ...referenceDays(day)]), day, drop, (c) => [
              'country',
              countryName(c) ?? c,
            ]);
      const subject = key === ACCOUNT ? { siteId: null, name: 'All sites' } : { siteId: key, name: names.get(key)! };
      found.push(alertOf(written.accountId, day, subject, { ...judged, kind: judged.kind }, drivers));
    }
  }
  const db = await getDb();
  return db.transaction((tx) => storeAlerts(tx, found));
}

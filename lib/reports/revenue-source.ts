/**
 * The rows that the aggregated reports (totals, by-country) sum for a set of sites and an inclusive range of
 * UTC days, as one derived table `revenue (country, impressions, ad_requests, revenue_micros, rows)`.
 *
 * Why: revenue_daily holds a row per site × day × country, so a year of a 100-site account in 200 countries
 * is 7.3 M rows. revenue_rollup holds the same numbers pre-summed (kept exact by triggers on revenue_daily,
 * db/migrations/0004_revenue_rollup.sql), so a report reads the coarsest grain that answers it:
 *
 *   whole account, totals        account × day / month                 ≤ ~90 rows for any range
 *   whole account, by country    account × country × day / month       ≤ ~200 × 90 rows
 *   some sites, totals           site × day / month                    ≤ sites × 90 rows
 *   some sites, by country       site × country running totals         2 × sites × countries rows
 *
 * Apart from some sites by country, a range is read in up to three pieces, UNION ALL-ed: its leading partial month
 * by day, its whole months by month, its trailing partial month by day:
 *
 *   2025-01-17 … 2025-01-31   leading days
 *   2025-02    … 2025-11      whole calendar months
 *   2025-12-01 … 2025-12-09   trailing days
 *
 * A partial month with fewer days outside the range than in it is read as its whole month less those days: a
 * range ending today (2025-12-01 … 2025-12-27) is December's month rows less December 28–31, which have no
 * rows yet, instead of 27 days of rows (for 50 of big@example.com's sites by country, 270,000 daily rows).
 *
 * Some sites by country, the grain that grows with sites × countries, are read as running totals instead: each site's
 * sums per country from its first day through a day, so any range is the totals at its last day less those at the
 * day before its first (db/migrations/0022_rollup_running_totals.sql): 50 of big@example.com's sites over 365 days
 * are 20,000 index entries, however the range falls on months.
 *
 * A subset of more than half of an account's sites is read as the whole account minus the other sites (whose
 * rows come with their signs flipped): integers subtract exactly, and fewer sites are read.
 *
 * Callers aggregate over `revenue` (sums, GROUP BY country, HAVING, ORDER BY), so a report is the same
 * whichever pieces and grains it came from; `rows` tells a group that has daily rows from one whose rows
 * were all subtracted away.
 */
import { and, eq, inArray, isNotNull, isNull, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { uuidArraySql } from '@/db/raw-query';
import { revenueRollup } from '@/db/schema';
import { addDays, daysBetweenInclusive } from '@/lib/query';

/** Columns of the derived table, for the aggregates and filters in field-sql.ts. */
export const revenue = {
  country: sql<string>`revenue.country`,
  impressions: sql<number>`revenue.impressions`,
  adRequests: sql<number>`revenue.ad_requests`,
  revenueMicros: sql<number>`revenue.revenue_micros`,
  rows: sql<number>`revenue.rows`,
};

/** What a report covers: sites of one account and an inclusive range of UTC days. */
export interface RevenueScope {
  userId: string;
  siteIds: readonly string[];
  /** The account's other sites: none means the whole account, whose own grains answer then. */
  otherSiteIds: readonly string[];
  fromDate: string;
  toDate: string;
  /** One viewer country only (the dashboard's country filter); read by country then. */
  country?: string | null;
}

/** Inclusive ranges of days; `months` runs from the first day of its first month to that of its last. */
export interface RangePieces {
  leadingDays?: DayRange;
  months?: DayRange;
  trailingDays?: DayRange;
}
interface DayRange {
  from: string;
  to: string;
}

// Month arithmetic on (year × 12 + month) numbers: no Date, so no overflow near 9999-12-31.
const monthOf = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
const firstDayOf = (month: number) =>
  `${String(Math.floor(month / 12)).padStart(4, '0')}-${String((month % 12) + 1).padStart(2, '0')}-01`;
const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysInMonth = (month: number) => {
  const [year, m] = [Math.floor(month / 12), month % 12];
  return m === 1 ? (isLeapYear(year) ? 29 : 28) : [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m];
};
const lastDayOf = (month: number) => `${firstDayOf(month).slice(0, 8)}${daysInMonth(month)}`;
const isLastDayOfMonth = (day: string) => day === lastDayOf(monthOf(day));

/** Splits the inclusive range [fromDate, toDate] into partial-month days and whole months. */
export function splitRange(fromDate: string, toDate: string): RangePieces {
  const startsOnFirst = fromDate.endsWith('-01');
  const endsOnLast = isLastDayOfMonth(toDate);
  const firstWhole = monthOf(fromDate) + (startsOnFirst ? 0 : 1);
  const lastWhole = monthOf(toDate) - (endsOnLast ? 0 : 1);
  if (firstWhole > lastWhole) return { leadingDays: { from: fromDate, to: toDate } };
  return {
    ...(startsOnFirst ? {} : { leadingDays: { from: fromDate, to: addDays(firstDayOf(firstWhole), -1) } }),
    months: { from: firstDayOf(firstWhole), to: firstDayOf(lastWhole) },
    ...(endsOnLast ? {} : { trailingDays: { from: firstDayOf(monthOf(toDate)), to: toDate } }),
  };
}

const dayCount = (ranges: DayRange[]) => ranges.reduce((n, r) => n + daysBetweenInclusive(r.from, r.to), 0);

/** A range of days cut at the starts of months (a range without a whole month spans at most two). */
function byMonth(range: DayRange): DayRange[] {
  const pieces: DayRange[] = [];
  for (let month = monthOf(range.from); month <= monthOf(range.to); month++) {
    const [first, last] = [firstDayOf(month), lastDayOf(month)];
    pieces.push({ from: range.from > first ? range.from : first, to: range.to < last ? range.to : last });
  }
  return pieces;
}

/** The days of the month a range of days lies in that are outside the range, before and after it. */
function daysOutside(range: DayRange): DayRange[] {
  const first = firstDayOf(monthOf(range.from));
  const last = lastDayOf(monthOf(range.from));
  const outside: DayRange[] = [];
  if (range.from > first) outside.push({ from: first, to: addDays(range.from, -1) });
  if (range.to < last) outside.push({ from: addDays(range.to, 1), to: last });
  return outside;
}

const between = (column: SQLWrapper, range: DayRange) =>
  sql`${column} between ${range.from}::date and ${range.to}::date`;

/** Whose rows a piece reads, and whether they are added (+1) or subtracted (-1). */
interface Part {
  siteIds: readonly string[] | 'account';
  sign: 1 | -1;
}

/** The rollup's figures, signed, `from` the rows that the piece reads. */
function select(part: Part, country: SQLWrapper, from: SQL) {
  const r = revenueRollup;
  const signed = (column: SQLWrapper) => (part.sign === 1 ? sql`${column}` : sql`-${column}`);
  return sql`select ${country} as country, ${signed(r.impressions)} as impressions,
    ${signed(r.adRequests)} as ad_requests, ${signed(r.revenueMicros)} as revenue_micros,
    ${signed(r.rows)} as rows from ${from}`;
}

/** Which countries a piece reads: the sum over all (null), each one (every), or just one. */
type Countries = { only: string } | 'every' | null;

const countriesIn = (countries: Countries) =>
  countries === null
    ? isNull(revenueRollup.country)
    : countries === 'every'
      ? isNotNull(revenueRollup.country)
      : eq(revenueRollup.country, countries.only);

/** The same rows with the opposite sign. */
const negated = <P extends Part>(part: P): P => ({ ...part, sign: part.sign === 1 ? -1 : 1 });

/** Rollup rows of one grain: the whole account's (site_id null) or the sites', summed over all countries or not. */
function rollupPiece(userId: string, part: Part, grain: 'd' | 'm', periods: DayRange, countries: Countries): SQL {
  const r = revenueRollup;
  const where = and(
    eq(r.userId, userId),
    eq(r.grain, grain),
    part.siteIds === 'account' ? isNull(r.siteId) : inArray(r.siteId, [...part.siteIds]),
    between(r.period, periods),
    countriesIn(countries),
  );
  return select(part, countries ? r.country : sql`null::char(2)`, sql`${r} where ${where}`);
}

/**
 * Each site's running totals on a day, by country: its rows of the last day on or before `day` that the site has
 * rows (one index descent per site), where every country it had rows in by then has its row.
 */
function runningTotalsPiece(
  userId: string,
  part: Part & { siteIds: readonly string[] },
  day: string,
  countries: Countries,
) {
  const r = revenueRollup;
  const ofSite = and(eq(r.userId, userId), eq(r.grain, 'c'), sql`${r.siteId} = site.id`);
  // Running totals are by country only: `every` needs no condition.
  const only = countries !== null && countries !== 'every' ? countriesIn(countries) : undefined;
  return select(
    part,
    r.country,
    sql`unnest(${uuidArraySql(part.siteIds)}) as site (id)
    cross join lateral (select max(${r.period}) as day from ${r} where ${and(ofSite, lte(r.period, day))}) as latest
    join ${r} on ${and(ofSite, sql`${r.period} = latest.day`, only)}`,
  );
}

/** Some sites by country: their running totals at the range's last day less those at the day before its first. */
function siteCountryPieces(scope: RevenueScope, part: Part & { siteIds: readonly string[] }, countries: Countries) {
  return [
    runningTotalsPiece(scope.userId, part, scope.toDate, countries),
    runningTotalsPiece(scope.userId, negated(part), addDays(scope.fromDate, -1), countries),
  ];
}

/** The fewest sites to read: the account's own grains, less the other sites when they are the fewer. */
function partsOf(scope: RevenueScope): Part[] {
  if (scope.otherSiteIds.length === 0) return [{ siteIds: 'account', sign: 1 }];
  if (scope.otherSiteIds.length < scope.siteIds.length) {
    return [
      { siteIds: 'account', sign: 1 },
      { siteIds: scope.otherSiteIds, sign: -1 },
    ];
  }
  return [{ siteIds: scope.siteIds, sign: 1 }];
}

/** Months by number, as the rollup's period range from the first day of the first to that of the last. */
const monthRange = (from: number, to: number): DayRange => ({ from: firstDayOf(from), to: firstDayOf(to) });

/** Months as runs of consecutive ones: one range of the rollup's key each. */
function runsOf(numbers: number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (const n of [...new Set(numbers)].sort((a, b) => a - b)) {
    const last = runs.at(-1);
    if (last && last[1] === n - 1) last[1] = n;
    else runs.push([n, n]);
  }
  return runs;
}

/**
 * `(… union all …) as revenue`: the scope's rows, by country or summed over countries, for a FROM clause. A
 * scope of one country is read by country, that country's rows only.
 */
export function revenueSource(scope: RevenueScope, options: { byCountry: boolean }): SQL {
  if (scope.siteIds.length === 0) {
    return sql`(select null::char(2) as country, 0::bigint as impressions, 0::bigint as ad_requests,
      0::bigint as revenue_micros, 0::bigint as rows where false) as revenue`;
  }
  const countries: Countries = scope.country ? { only: scope.country } : options.byCountry ? 'every' : null;
  const { leadingDays, months, trailingDays } = splitRange(scope.fromDate, scope.toDate);
  const pieces = partsOf(scope).flatMap((part) => {
    if (countries && part.siteIds !== 'account')
      return siteCountryPieces(scope, { ...part, siteIds: part.siteIds }, countries);
    const less = negated(part);
    const dayPieces: SQL[] = [];
    const wholeMonths: number[] = [];
    // A partial month is read by day, or as its whole month less the days outside it when those are fewer.
    const partialMonth = (range: DayRange) => {
      const outside = daysOutside(range);
      if (1 + dayCount(outside) >= dayCount([range])) {
        dayPieces.push(rollupPiece(scope.userId, part, 'd', range, countries));
      } else {
        wholeMonths.push(monthOf(range.from));
        dayPieces.push(...outside.map((r) => rollupPiece(scope.userId, less, 'd', r, countries)));
      }
    };
    if (leadingDays) byMonth(leadingDays).forEach(partialMonth);
    if (months) for (let m = monthOf(months.from); m <= monthOf(months.to); m++) wholeMonths.push(m);
    if (trailingDays) partialMonth(trailingDays);
    const monthRuns = runsOf(wholeMonths).map(([from, to]) =>
      rollupPiece(scope.userId, part, 'm', monthRange(from, to), countries),
    );
    return [...dayPieces, ...monthRuns];
  });
  return sql`(${sql.join(pieces, sql` union all `)}) as revenue`;
}

/**
 * The rows that the aggregated reports (totals, by-country) sum for a set of sites and an inclusive range of
 * UTC days, as one derived table `revenue (country, impressions, ad_requests, revenue_micros)`.
 *
 * Why: revenue_daily holds a row per site × day × country, so a year of a 50-site account is ~820k rows to
 * read for every long-range report. revenue_monthly holds the same numbers per site × month × country
 * (~30× fewer rows), kept exact by triggers on revenue_daily (db/migrations/0003_monthly_rollup.sql).
 * A range is therefore read in up to three pieces, UNION ALL-ed:
 *
 *   2025-01-17 … 2025-01-31   leading days of a partial month   → revenue_daily
 *   2025-02    … 2025-11      whole calendar months             → revenue_monthly
 *   2025-12-01 … 2025-12-09   trailing days of a partial month  → revenue_daily
 *
 * A range without a whole month in it reads revenue_daily alone, exactly as before. Callers aggregate over
 * `revenue` (sums, GROUP BY country, HAVING, ORDER BY), so a report is the same whichever pieces it came from.
 */
import { and, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { revenueDaily, revenueMonthly } from '@/db/schema';
import { addDays } from '@/lib/query';

/** Columns of the derived table, for the aggregates and filters in report-fields.ts. */
export const revenue = {
  country: sql<string>`revenue.country`,
  impressions: sql<number>`revenue.impressions`,
  adRequests: sql<number>`revenue.ad_requests`,
  revenueMicros: sql<number>`revenue.revenue_micros`,
};

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
const isLastDayOfMonth = (day: string) =>
  Number(day.slice(8)) === new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 0)).getUTCDate();

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

type Table = typeof revenueDaily | typeof revenueMonthly;

/** One piece: the table's rows of the sites with `dateColumn` from `range.from` to `range.to`, inclusive. */
function piece(table: Table, dateColumn: SQLWrapper, siteIds: readonly string[], range: DayRange): SQL {
  const sites = siteIds.length > 0 ? inArray(table.siteId, [...siteIds]) : sql`false`;
  return sql`select ${table.country} as country, ${table.impressions} as impressions, ${table.adRequests} as ad_requests,
    ${table.revenueMicros} as revenue_micros from ${table}
    where ${and(sites, sql`${dateColumn} between ${range.from}::date and ${range.to}::date`)}`;
}

/** `(… union all …) as revenue`: the sites' rows for the range, for a FROM clause. */
export function revenueSource(siteIds: readonly string[], fromDate: string, toDate: string): SQL {
  const { leadingDays, months, trailingDays } = splitRange(fromDate, toDate);
  const pieces = [
    leadingDays && piece(revenueDaily, revenueDaily.day, siteIds, leadingDays),
    months && piece(revenueMonthly, revenueMonthly.month, siteIds, months),
    trailingDays && piece(revenueDaily, revenueDaily.day, siteIds, trailingDays),
  ].filter((p) => p !== undefined);
  return sql`(${sql.join(pieces, sql` union all `)}) as revenue`;
}

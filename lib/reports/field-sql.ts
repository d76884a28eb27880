import { sql, type SQLWrapper } from 'drizzle-orm';
import { revenueDaily, sites } from '@/db/schema';
import { byCountryQueryOf, pagedRowsQueryOf, rowsQueryOf } from '@/lib/query';
import { cpmSql, fillRateSql, revenueUsdSql } from '@/db/metrics';
import { revenue } from './revenue-source';
import { byCountryFields, rowFields, type ByCountryField, type RowField } from './fields';

/**
 * The SQL that sorts and filters each of the row types' fields (lib/reports/fields.ts), typed to cover exactly
 * the fields of their schemas (./schemas.ts). Output values are computed from the same sums in
 * lib/shared/money.ts.
 */

// Aggregates for one group (by-country rows, totals) over the combined daily and monthly rows of a range
// (revenue-source.ts), so HAVING and ORDER BY see the same sums as the answer.
const rev = sql`sum(${revenue.revenueMicros})`;
const imp = sql`sum(${revenue.impressions})`;
const req = sql`sum(${revenue.adRequests})`;

export const aggregates = {
  revenueMicros: sql`coalesce(${rev}, 0)`.mapWith(Number),
  impressions: sql`coalesce(${imp}, 0)`.mapWith(Number),
  adRequests: sql`coalesce(${req}, 0)`.mapWith(Number),
};

export const byCountryColumns: Record<ByCountryField, SQLWrapper> = {
  country: revenue.country,
  revenueAmount: revenueUsdSql(rev),
  cpm: cpmSql(rev, imp),
  adRequests: req,
  impressions: imp,
  fillRate: fillRateSql(imp, req),
};

/**
 * The ad unit a row reports: the one its import named, else its site's. Written in SQL below (to filter and
 * sort by it) and here for the export, which reads sites apart; the export's tests compare it with the paged rows.
 */
export const adUnitIdOf = (rowAdUnitId: string | null, siteAdUnitId: string | null | undefined) =>
  rowAdUnitId ?? siteAdUnitId ?? null;

const r = revenueDaily;
export const rowFilterColumns: Record<RowField, SQLWrapper> = {
  impressions: r.impressions,
  clicks: r.clicks,
  adRequests: r.adRequests,
  cpm: cpmSql(r.revenueMicros, r.impressions),
  revenueAmount: revenueUsdSql(r.revenueMicros),
  fillRate: fillRateSql(r.impressions, r.adRequests),
  country: r.country,
  createdAt: r.day,
  // Filtered as a UTC day whatever the session time zone is.
  updatedAt: sql`((${r.updatedAt} at time zone 'UTC')::date)`,
  gameId: r.siteId,
  userId: r.userId,
  // The ad unit an import named for the row, else the site's: the rule of adUnitIdOf, in SQL.
  adUnitId: sql`coalesce(${r.adUnitId}, ${sites.adUnitId})`,
  gameName: sites.name,
};

/**
 * Sorting needs the exact timestamp, not the day that filtering compares; revenue sorts by its micro-dollars
 * (the same order), so that one index on revenue_daily serves it.
 */
export const rowSortColumns: Record<RowField, SQLWrapper> = {
  ...rowFilterColumns,
  updatedAt: r.updatedAt,
  revenueAmount: r.revenueMicros,
};

/** Each report's query parameters, parsed into its typed input (lib/query/input.ts). */
export const byCountryQuery = byCountryQueryOf(byCountryFields);
export const rowsQuery = pagedRowsQueryOf(rowFields);
export const rowsExportQuery = rowsQueryOf(rowFields);

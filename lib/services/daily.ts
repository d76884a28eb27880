import { and, between, eq, inArray, isNull, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { revenueRollup } from '@/db/schema';
import { type Metrics, metricsOf, NO_SUMS, type Sums } from '@/lib/money';
import { eachDay, type SiteDayInput } from '@/lib/query';
import type { Principal } from './principal';
import { reportScope } from './reports';

export interface DailyPoint extends Metrics {
  day: string;
}

/**
 * Revenue per UTC day for the dashboard's chart, one point for every day of the range: days without rows
 * are zeros, so the chart never skips a day. Scope and range are the reports' (reportScope). Read from the
 * rollup's day grain summed over countries: the account's row per day, or one per site and day.
 */
export async function getDailyRevenue(principal: Principal, input: SiteDayInput): Promise<DailyPoint[]> {
  const { siteIds, otherSiteIds, fromDate, toDate } = await reportScope(principal, input);
  const allSites = otherSiteIds.length === 0;
  const byDay = new Map<string, Sums>();
  if (siteIds.length > 0) {
    const db = await getDb();
    const r = revenueRollup;
    const rows = await db
      .select({
        day: r.period,
        revenueMicros: sql`sum(${r.revenueMicros})`.mapWith(Number),
        impressions: sql`sum(${r.impressions})`.mapWith(Number),
        adRequests: sql`sum(${r.adRequests})`.mapWith(Number),
        clicks: sql`sum(${r.clicks})`.mapWith(Number),
      })
      .from(r)
      .where(
        and(
          eq(r.userId, principal.userId),
          eq(r.grain, 'd'),
          allSites ? isNull(r.siteId) : inArray(r.siteId, siteIds),
          isNull(r.country),
          between(r.period, fromDate, toDate),
        ),
      )
      .groupBy(r.period);
    for (const row of rows) byDay.set(row.day, row);
  }
  return eachDay(fromDate, toDate).map((day) => ({ day, ...metricsOf(byDay.get(day) ?? NO_SUMS) }));
}

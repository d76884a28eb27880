import { and, between, eq, inArray, isNull, sql } from 'drizzle-orm';
import { getReadDb } from '@/db/client';
import { revenueDaily, revenueRollup } from '@/db/schema';
import { type Metrics, metricsOf, NO_SUMS, type Sums } from '@/lib/shared/money';
import { eachDay } from '@/lib/query';
import type { Principal } from '@/lib/access';
import { reportScope, scopeShape, type ReportInput, type ReportScope } from './reports';
import { cachedReport } from './result-cache';

export interface DailyPoint extends Metrics {
  day: string;
}

type Table = typeof revenueRollup | typeof revenueDaily;
const sumsOf = (t: Table) => ({
  revenueMicros: sql`sum(${t.revenueMicros})`.mapWith(Number),
  impressions: sql`sum(${t.impressions})`.mapWith(Number),
  adRequests: sql`sum(${t.adRequests})`.mapWith(Number),
  clicks: sql`sum(${t.clicks})`.mapWith(Number),
});

/**
 * Revenue per UTC day for the dashboard's chart, one point for every day of the range: days without rows
 * are zeros, so the chart never skips a day. Scope and range are the reports' (reportScope). Read from the
 * rollup's day grain: the account's row per day (of one country, or summed over all), or one per site and
 * day; only some sites in one country, a grain the rollup does not keep, come from the daily rows.
 */
export async function getDailyRevenue(principal: Principal, input: ReportInput): Promise<DailyPoint[]> {
  const scope = await reportScope(principal, input);
  return cachedReport(scope, 'daily', scopeShape(scope), () => dailyPoints(scope));
}

async function dailyPoints(scope: ReportScope): Promise<DailyPoint[]> {
  const { userId, siteIds, otherSiteIds, fromDate, toDate, country } = scope;
  const allSites = otherSiteIds.length === 0;
  const byDay = new Map<string, Sums>();
  if (siteIds.length > 0) {
    const db = await getReadDb();
    const r = revenueRollup;
    const d = revenueDaily;
    const rows =
      country && !allSites
        ? await db
            .select({ day: d.day, ...sumsOf(d) })
            .from(d)
            .where(
              and(
                eq(d.userId, userId),
                inArray(d.siteId, siteIds),
                eq(d.country, country),
                between(d.day, fromDate, toDate),
              ),
            )
            .groupBy(d.day)
        : await db
            .select({ day: r.period, ...sumsOf(r) })
            .from(r)
            .where(
              and(
                eq(r.userId, userId),
                eq(r.grain, 'd'),
                allSites ? isNull(r.siteId) : inArray(r.siteId, siteIds),
                country ? eq(r.country, country) : isNull(r.country),
                between(r.period, fromDate, toDate),
              ),
            )
            .groupBy(r.period);
    for (const row of rows) byDay.set(row.day, row);
  }
  return eachDay(fromDate, toDate).map((day) => ({ day, ...metricsOf(byDay.get(day) ?? NO_SUMS) }));
}

import { and, between, inArray, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { revenueDaily } from '@/db/schema';
import { cpmOf, fillRateOf, usdFromMicros } from '@/lib/money';
import { eachDay } from '@/lib/query';
import { readableSites } from './account';
import type { Principal } from './principal';

export interface DailyPoint {
  day: string;
  revenue: number;
  impressions: number;
  adRequests: number;
  clicks: number;
  cpm: number;
  fillRate: number;
}

/**
 * Revenue per UTC day for the dashboard's chart, one point for every day of the range: days without rows
 * are zeros, so the chart never skips a day. Scope rules are the reports' (readableSites).
 */
export async function getDailyRevenue(
  principal: Principal,
  range: { from: string; to: string; sites: string[] | null },
): Promise<DailyPoint[]> {
  const { siteIds } = await readableSites(principal, range.sites);
  const byDay = new Map<string, { revenueMicros: number; impressions: number; adRequests: number; clicks: number }>();
  if (siteIds.length > 0) {
    const db = await getDb();
    const rows = await db
      .select({
        day: revenueDaily.day,
        revenueMicros: sql`sum(${revenueDaily.revenueMicros})`.mapWith(Number),
        impressions: sql`sum(${revenueDaily.impressions})`.mapWith(Number),
        adRequests: sql`sum(${revenueDaily.adRequests})`.mapWith(Number),
        clicks: sql`sum(${revenueDaily.clicks})`.mapWith(Number),
      })
      .from(revenueDaily)
      .where(and(inArray(revenueDaily.siteId, siteIds), between(revenueDaily.day, range.from, range.to)))
      .groupBy(revenueDaily.day);
    for (const row of rows) byDay.set(row.day, row);
  }
  return eachDay(range.from, range.to).map((day) => {
    const d = byDay.get(day) ?? { revenueMicros: 0, impressions: 0, adRequests: 0, clicks: 0 };
    return {
      day,
      revenue: usdFromMicros(d.revenueMicros),
      impressions: d.impressions,
      adRequests: d.adRequests,
      clicks: d.clicks,
      cpm: cpmOf(d.revenueMicros, d.impressions),
      fillRate: fillRateOf(d.impressions, d.adRequests),
    };
  });
}

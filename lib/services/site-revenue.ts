import { and, between, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { revenueRollup, sites } from '@/db/schema';
import { type Metrics, metricsOf, NO_SUMS, usdFromMicros } from '@/lib/money';
import { daysBetweenInclusive, eachDay, type SiteDayInput } from '@/lib/query';
import type { Principal } from './principal';
import { reportScope } from './reports';
import { splitRange } from './revenue-source';

export interface SiteRevenue extends Metrics {
  siteId: string;
  name: string | null;
  url: string | null;
  status: 'live' | 'approved' | 'pending' | null;
  /** Revenue over the range in at most SERIES_POINTS buckets of whole days, oldest first: the sparkline. */
  series: number[];
}

/** A sparkline has room for about this many points; longer ranges are summed into buckets of days. */
export const SERIES_POINTS = 60;

const r = revenueRollup;
const sums = {
  revenueMicros: sql`coalesce(sum(${r.revenueMicros}), 0)`.mapWith(Number),
  impressions: sql`coalesce(sum(${r.impressions}), 0)`.mapWith(Number),
  adRequests: sql`coalesce(sum(${r.adRequests}), 0)`.mapWith(Number),
  clicks: sql`coalesce(sum(${r.clicks}), 0)`.mapWith(Number),
};

/**
 * Each readable site's figures for a range (the dashboard's Sites page and the overview's top sites), every
 * site included, those without revenue as zeros, highest revenue first. Summed from the rollup's per-site
 * grains (partial months by day, whole months by month), so they add up exactly to the totals report.
 */
export async function getRevenueBySite(principal: Principal, input: SiteDayInput): Promise<SiteRevenue[]> {
  const { siteIds, fromDate, toDate } = await reportScope(principal, input);
  if (siteIds.length === 0) return [];
  const db = await getDb();
  const pieces = splitRange(fromDate, toDate);
  const periods = [pieces.leadingDays, pieces.trailingDays]
    .filter((p) => p !== undefined)
    .map((p) => and(eq(r.grain, 'd'), between(r.period, p.from, p.to)));
  if (pieces.months) periods.push(and(eq(r.grain, 'm'), between(r.period, pieces.months.from, pieces.months.to)));
  const inScope = and(eq(r.userId, principal.userId), inArray(r.siteId, siteIds), isNull(r.country));
  const [totals, daily, names] = await Promise.all([
    db
      .select({ siteId: r.siteId, ...sums })
      .from(r)
      .where(and(inScope, or(...periods)))
      .groupBy(r.siteId),
    db
      .select({ siteId: r.siteId, day: r.period, revenueMicros: r.revenueMicros })
      .from(r)
      .where(and(inScope, eq(r.grain, 'd'), between(r.period, fromDate, toDate))),
    db
      .select({ siteId: sites.id, name: sites.name, url: sites.url, status: sites.status })
      .from(sites)
      .where(inArray(sites.id, siteIds)),
  ]);
  const series = seriesBySite(daily, fromDate, toDate);
  const byId = new Map(totals.map((t) => [t.siteId!, t]));
  return names
    .map((site) => ({
      ...site,
      ...metricsOf(byId.get(site.siteId) ?? NO_SUMS),
      series: series.get(site.siteId) ?? series.get('')!,
    }))
    .sort((a, b) => b.revenue - a.revenue || (a.name ?? '').localeCompare(b.name ?? ''));
}

/** Per site, revenue by day summed into buckets of equal whole days (the last may be shorter); '' is all zeros. */
function seriesBySite(
  rows: { siteId: string | null; day: string; revenueMicros: number }[],
  fromDate: string,
  toDate: string,
): Map<string, number[]> {
  const days = eachDay(fromDate, toDate);
  const perBucket = Math.ceil(daysBetweenInclusive(fromDate, toDate) / SERIES_POINTS);
  const indexOf = new Map(days.map((day, i) => [day, Math.floor(i / perBucket)]));
  const buckets = Math.ceil(days.length / perBucket);
  const micros = new Map<string, number[]>([['', new Array(buckets).fill(0)]]);
  for (const row of rows) {
    const siteId = row.siteId!;
    if (!micros.has(siteId)) micros.set(siteId, new Array(buckets).fill(0));
    micros.get(siteId)![indexOf.get(row.day)!] += row.revenueMicros;
  }
  return new Map([...micros].map(([siteId, values]) => [siteId, values.map(usdFromMicros)]));
}

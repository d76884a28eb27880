import { and, between, eq, inArray, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { getReadDb } from '@/db/client';
import { revenueDaily, revenueRollup, sites } from '@/db/schema';
import { addSums, type Metrics, metricsOf, NO_SUMS, type Sums, usdFromMicros } from '@/lib/shared/money';
import { daysBetweenInclusive } from '@/lib/query';
import type { Principal } from '@/lib/access';
import { reportScope, scopeShape, type ReportInput, type ReportScope } from './reports';
import { cachedReport } from './result-cache';
import { splitRange } from './revenue-source';

export interface SiteRevenue extends Metrics {
  siteId: string;
  name: string | null;
  url: string | null;
  status: 'live' | 'approved' | 'pending' | null;
  /**
   * Revenue over the range in at most SERIES_POINTS buckets of whole days, oldest first: the sparkline. Empty
   * when the caller did not ask for it (`{ series: false }`).
   */
  series: number[];
}

/** A sparkline has room for about this many points; longer ranges are summed into buckets of days. */
export const SERIES_POINTS = 60;

const r = revenueRollup;
const sumsOf = (t: typeof revenueRollup | typeof revenueDaily) => ({
  revenueMicros: sql`coalesce(sum(${t.revenueMicros}), 0)`.mapWith(Number),
  impressions: sql`coalesce(sum(${t.impressions}), 0)`.mapWith(Number),
  adRequests: sql`coalesce(sum(${t.adRequests}), 0)`.mapWith(Number),
  clicks: sql`coalesce(sum(${t.clicks}), 0)`.mapWith(Number),
});
type SiteSums = Sums & { siteId: string | null };
/** A site's revenue in one bucket of the sparkline (0 is the range's first). */
type SiteBucket = { siteId: string | null; bucket: number; revenueMicros: number };

/** Whole days per sparkline point: a range of up to SERIES_POINTS days has a point a day. */
const daysPerBucket = (fromDate: string, toDate: string) =>
  Math.ceil(daysBetweenInclusive(fromDate, toDate) / SERIES_POINTS);

/**
 * The sparkline point a day falls in, in SQL. Grouped by position (`sql\`2\``) where it is selected second: the
 * expression written twice would carry different parameters, and PostgreSQL would not match them.
 */
const bucketOf = (day: SQLWrapper, fromDate: string, toDate: string) =>
  sql<number>`((${day} - ${fromDate}::date) / ${daysPerBucket(fromDate, toDate)})::int`.mapWith(Number);

/**
 * Each readable site's figures for a range (the dashboard's Sites page and the overview's top sites), every
 * site included, those without revenue as zeros, highest revenue first. Summed from the rollup's per-site
 * grains (partial months by day, whole months by month), so they add up exactly to the totals report; in one
 * country, from the daily rows (the rollup keeps no site × country × day grain).
 */
export async function getRevenueBySite(
  principal: Principal,
  input: ReportInput,
  options: { series: boolean } = { series: true },
): Promise<SiteRevenue[]> {
  const scope = await reportScope(principal, input);
  const { series } = options;
  return cachedReport(scope, 'bySite', [scopeShape(scope), series], () => sitesOf(scope, series));
}

async function sitesOf(scope: ReportScope, withSeries: boolean): Promise<SiteRevenue[]> {
  const { userId, siteIds, fromDate, toDate, country } = scope;
  if (siteIds.length === 0) return [];
  const db = await getReadDb();
  const [{ totals, buckets }, names] = await Promise.all([
    country
      ? inOneCountry(userId, siteIds, country, fromDate, toDate)
      : fromRollup(userId, siteIds, fromDate, toDate, withSeries),
    db
      .select({ siteId: sites.id, name: sites.name, url: sites.url, status: sites.status })
      .from(sites)
      .where(inArray(sites.id, siteIds)),
  ]);
  const series = withSeries ? seriesBySite(buckets, fromDate, toDate) : new Map([['', []]]);
  const byId = new Map(totals.map((t) => [t.siteId!, t]));
  return names
    .map((site) => ({
      ...site,
      ...metricsOf(byId.get(site.siteId) ?? NO_SUMS),
      series: series.get(site.siteId) ?? series.get('')!,
    }))
    .sort((a, b) => b.revenue - a.revenue || (a.name ?? '').localeCompare(b.name ?? ''));
}

/**
 * Each site's sums and revenue by sparkline bucket, from the rollup's site grains summed over countries: summed in
 * the database, a year of 100 sites is 6,000 rows rather than 36,500 days.
 */
async function fromRollup(userId: string, siteIds: string[], fromDate: string, toDate: string, series: boolean) {
  const db = await getReadDb();
  const pieces = splitRange(fromDate, toDate);
  const periods = [pieces.leadingDays, pieces.trailingDays]
    .filter((p) => p !== undefined)
    .map((p) => and(eq(r.grain, 'd'), between(r.period, p.from, p.to)));
  if (pieces.months) periods.push(and(eq(r.grain, 'm'), between(r.period, pieces.months.from, pieces.months.to)));
  const inScope = and(eq(r.userId, userId), inArray(r.siteId, siteIds), isNull(r.country));
  const [totals, buckets] = await Promise.all([
    db
      .select({ siteId: r.siteId, ...sumsOf(r) })
      .from(r)
      .where(and(inScope, or(...periods)))
      .groupBy(r.siteId),
    series ? sitePoints(inScope, fromDate, toDate) : [],
  ]);
  return { totals: totals as SiteSums[], buckets };
}

/**
 * The sites' revenue by sparkline point, from the rollup's days. A row per site with its points as one text
 * ("point:micros,…"): a year of 100 sites is 6,000 points, and as rows drizzle's mapping of them took ~10 ms of
 * CPU per Sites page.
 */
async function sitePoints(inScope: SQL | undefined, fromDate: string, toDate: string): Promise<SiteBucket[]> {
  const db = await getReadDb();
  const points = db
    .select({
      siteId: r.siteId,
      bucket: bucketOf(r.period, fromDate, toDate).as('bucket'),
      micros: sql`sum(${r.revenueMicros})`.as('micros'),
    })
    .from(r)
    .where(and(inScope, eq(r.grain, 'd'), between(r.period, fromDate, toDate)))
    .groupBy(r.siteId, sql`2`)
    .as('points');
  const rows = await db
    .select({
      siteId: points.siteId,
      points: sql<string>`string_agg(${points.bucket} || ':' || ${points.micros}, ',')`,
    })
    .from(points)
    .groupBy(points.siteId);
  return rows.flatMap(({ siteId, points }) =>
    points.split(',').map((point) => {
      const [bucket, micros] = point.split(':');
      return { siteId, bucket: Number(bucket), revenueMicros: Number(micros) };
    }),
  );
}

/** Each site's sums and revenue by sparkline point in one country: its daily rows summed by site and point. */
async function inOneCountry(userId: string, siteIds: string[], country: string, fromDate: string, toDate: string) {
  const db = await getReadDb();
  const d = revenueDaily;
  const rows = await db
    .select({ siteId: d.siteId, bucket: bucketOf(d.day, fromDate, toDate), ...sumsOf(d) })
    .from(d)
    .where(
      and(eq(d.userId, userId), inArray(d.siteId, siteIds), eq(d.country, country), between(d.day, fromDate, toDate)),
    )
    .groupBy(d.siteId, sql`2`);
  const totals = new Map<string, SiteSums>();
  for (const row of rows) {
    totals.set(row.siteId, { siteId: row.siteId, ...addSums(totals.get(row.siteId) ?? NO_SUMS, row) });
  }
  return { totals: [...totals.values()], buckets: rows };
}

/** Per site, revenue in buckets of equal whole days (the last may be shorter); '' is all zeros. */
function seriesBySite(rows: SiteBucket[], fromDate: string, toDate: string): Map<string, number[]> {
  const buckets = Math.ceil(daysBetweenInclusive(fromDate, toDate) / daysPerBucket(fromDate, toDate));
  const micros = new Map<string, number[]>([['', new Array(buckets).fill(0)]]);
  for (const row of rows) {
    const siteId = row.siteId!;
    if (!micros.has(siteId)) micros.set(siteId, new Array(buckets).fill(0));
    micros.get(siteId)![row.bucket] += row.revenueMicros;
  }
  return new Map([...micros].map(([siteId, values]) => [siteId, values.map(usdFromMicros)]));
}

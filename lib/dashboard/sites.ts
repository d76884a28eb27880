import { getRevenueBySite, type ReportRange, type SiteRevenue } from '@/lib/reports';
import type { Principal } from '@/lib/access';
import { relativeChange } from '@/lib/shared/format';
import { fetchCompared, type CompareMode } from './comparison';

/** The columns of the Sites table one may sort by, by their URL names (`sortBy`). */
export const SITE_SORTS = ['name', 'revenue', 'change', 'impressions', 'cpm', 'fillRate'] as const;
export type SiteSort = (typeof SITE_SORTS)[number];

/** What the Sites table shows of a site; the page sorts and pages them on the server (sortSiteRows). */
export interface SiteTableRow extends Pick<
  SiteRevenue,
  'siteId' | 'name' | 'url' | 'status' | 'revenue' | 'impressions' | 'cpm' | 'fillRate'
> {
  /** The sparkline's revenue per bucket, in whole cents: a 28-pixel line needs no micro-dollars. */
  series: number[];
  /** Revenue of the complete days and of the compared ones; null without a comparison. */
  change: { current: number; previous: number } | null;
}

export interface SiteBreakdown {
  rows: SiteTableRow[];
  /** The compared period, if any. */
  compared: ReportRange | null;
}

/**
 * Each site's figures for the range, with what its change column compares: its revenue over the range's
 * complete days and over as many days of the compared period (none without a comparison).
 */
export async function loadSiteBreakdown(
  principal: Principal,
  range: ReportRange,
  compare: CompareMode,
  today: string,
): Promise<SiteBreakdown> {
  const { whole, compared, change } = await fetchCompared(range, compare, today, (days) =>
    getRevenueBySite(principal, days),
  );
  const revenueOf = (list: SiteRevenue[]) => new Map(list.map((site) => [site.siteId, site.revenue]));
  const periods = change && { now: revenueOf(change.current), before: revenueOf(change.previous) };
  // Only what the table shows, and the sparkline in cents: the fields it does not show and the micro-dollar
  // series were a quarter of the hundred sites' 74 KB, which the page sends to the browser and renders.
  const rows = whole.map(
    ({ siteId, name, url, status, revenue, impressions, cpm, fillRate, series }): SiteTableRow => ({
      siteId,
      name,
      url,
      status,
      revenue,
      impressions,
      cpm,
      fillRate,
      series: series.map((usd) => Math.round(usd * 100) / 100),
      change: periods ? { current: periods.now.get(siteId) ?? 0, previous: periods.before.get(siteId) ?? 0 } : null,
    }),
  );
  return { rows, compared };
}

// "New" (no revenue before) sorts above every growth rate; without a comparison every change is equal.
const changeOf = ({ change }: SiteTableRow) =>
  change ? (relativeChange(change.current, change.previous) ?? Number.POSITIVE_INFINITY) : 0;
const byName = (a: SiteTableRow, b: SiteTableRow) =>
  (a.name ?? '').localeCompare(b.name ?? '') || a.siteId.localeCompare(b.siteId);
const SORT_KEYS: Record<Exclude<SiteSort, 'name'>, (row: SiteTableRow) => number> = {
  revenue: (row) => row.revenue,
  change: changeOf,
  impressions: (row) => row.impressions,
  cpm: (row) => row.cpm,
  fillRate: (row) => row.fillRate,
};

/**
 * The rows in the table's order: by the column, either way, equal figures by name so that a page boundary
 * never moves between two requests. Sorted here, the browser receives only the page it shows.
 */
export function sortSiteRows(rows: SiteTableRow[], sortBy: SiteSort, descending: boolean): SiteTableRow[] {
  const sign = descending ? -1 : 1;
  if (sortBy === 'name') return rows.toSorted((a, b) => sign * byName(a, b));
  const key = SORT_KEYS[sortBy];
  return rows.toSorted((a, b) => sign * (key(a) - key(b)) || byName(a, b));
}

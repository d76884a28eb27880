import { getRevenueBySite, type ReportRange, type SiteRevenue } from '@/lib/reports';
import type { Principal } from '@/lib/accounts';
import { fetchCompared, type CompareMode } from './comparison';

/** The columns of the Sites table one may sort by, by their URL names (`sortBy`). */
export const SITE_SORTS = ['name', 'revenue', 'change', 'impressions', 'cpm', 'fillRate'] as const;
export type SiteSort = (typeof SITE_SORTS)[number];

export interface SiteBreakdown {
  rows: (SiteRevenue & { change: { current: number; previous: number } | null })[];
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
  const revenue = change && { now: revenueOf(change.current), before: revenueOf(change.previous) };
  const rows = whole.map((site) => ({
    ...site,
    change: revenue
      ? { current: revenue.now.get(site.siteId) ?? 0, previous: revenue.before.get(site.siteId) ?? 0 }
      : null,
  }));
  return { rows, compared };
}

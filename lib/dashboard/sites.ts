import type { ReportRange } from '@/lib/services/reports';
import type { SessionUser } from '@/lib/services/sessions';
import { getRevenueBySite, type SiteRevenue } from '@/lib/services/site-revenue';
import { listSites, type SiteResponse } from '@/lib/services/sites';
import { previousPeriod } from './filters';

/** The columns of the Sites table one may sort by, by their URL names (`sortBy`). */
export const SITE_SORTS = ['name', 'revenue', 'change', 'impressions', 'cpm', 'fillRate'] as const;
export type SiteSort = (typeof SITE_SORTS)[number];

export interface SiteBreakdown {
  rows: (SiteRevenue & { previousRevenue: number })[];
  /** Every site of the account, for the filter bar. */
  sites: SiteResponse[];
}

/** Each site's figures for the range, with its revenue in the period before for the change column. */
export async function loadSiteBreakdown(user: SessionUser, range: ReportRange): Promise<SiteBreakdown> {
  const { principal } = user;
  const [current, previous, sites] = await Promise.all([
    getRevenueBySite(principal, range),
    getRevenueBySite(principal, previousPeriod(range)),
    listSites(principal),
  ]);
  const before = new Map(previous.map((site) => [site.siteId, site.revenue]));
  return { rows: current.map((site) => ({ ...site, previousRevenue: before.get(site.siteId) ?? 0 })), sites };
}

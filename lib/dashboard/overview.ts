import { getDailyRevenue, type DailyPoint } from '@/lib/services/daily';
import { byCountryQuery } from '@/lib/services/report-fields';
import {
  getRevenueByCountry,
  getTotals,
  type ReportRange,
  type RevenueByCountryResponse,
  type RevenueTotalResponse,
} from '@/lib/services/reports';
import type { SessionUser } from '@/lib/services/sessions';
import { getRevenueBySite, type SiteRevenue } from '@/lib/services/site-revenue';
import { listSites, type SiteResponse } from '@/lib/services/sites';
import { previousPeriod } from './filters';

/** What the overview shows first: the KPI cards (this period and the one before) and the filter bar's sites. */
export interface OverviewHeadline {
  totals: RevenueTotalResponse;
  previousTotals: RevenueTotalResponse;
  sites: SiteResponse[];
}

/** What follows below the cards: the daily series of both periods and the top countries. */
export interface OverviewTrends {
  daily: DailyPoint[];
  previousDaily: DailyPoint[];
  topCountries: RevenueByCountryResponse[];
  countryCount: number;
  /** Every readable site of the range, highest revenue first (the page shows the top ones). */
  siteFigures: SiteRevenue[];
}

export const TOP_COUNTRIES = 10;
export const TOP_SITES = 5;

/** The top countries by revenue: the by-country report's defaults with its own sort and page size. */
const topCountriesView = {
  ...byCountryQuery.parse({}),
  sortBy: 'revenueAmount',
  sortDirection: 'desc',
  pageSize: TOP_COUNTRIES,
} as const;

/** The KPI figures, from the same service (and so the same numbers) as GET /api/v1/reports/totals. */
export async function loadHeadline(user: SessionUser, range: ReportRange): Promise<OverviewHeadline> {
  const { principal } = user;
  const [totals, previousTotals, sites] = await Promise.all([
    getTotals(principal, range),
    getTotals(principal, previousPeriod(range)),
    listSites(principal),
  ]);
  return { totals, previousTotals, sites };
}

/** The chart and top-countries data; the page streams it in after the cards. */
export async function loadTrends(user: SessionUser, range: ReportRange): Promise<OverviewTrends> {
  const { principal } = user;
  const [daily, previousDaily, countries, sites] = await Promise.all([
    getDailyRevenue(principal, range),
    getDailyRevenue(principal, previousPeriod(range)),
    getRevenueByCountry(principal, { ...topCountriesView, ...range }),
    getRevenueBySite(principal, range),
  ]);
  return {
    daily,
    previousDaily,
    topCountries: countries.data,
    countryCount: countries.meta.totalRows,
    siteFigures: sites,
  };
}

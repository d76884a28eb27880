import type { SessionUser } from '@/lib/services/sessions';
import { getDailyRevenue, type DailyPoint } from '@/lib/services/daily';
import { getRevenueByCountry, getTotals, type RevenueByCountryResponse, type RevenueTotalResponse } from '@/lib/services/reports';
import { listSites, type SiteResponse } from '@/lib/services/sites';
import { previousPeriod, toApiQuery, type DashboardFilters } from './filters';

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
}

export const TOP_COUNTRIES = 10;

/** The KPI figures, from the same service (and so the same numbers) as GET /api/v1/reports/totals. */
export async function loadHeadline(user: SessionUser, filters: DashboardFilters): Promise<OverviewHeadline> {
  const { principal } = user;
  const [totals, previousTotals, sites] = await Promise.all([
    getTotals(principal, toApiQuery(filters)),
    getTotals(principal, toApiQuery(previousPeriod(filters))),
    listSites(principal),
  ]);
  return { totals, previousTotals, sites };
}

/** The chart and top-countries data; the page streams it in after the cards. */
export async function loadTrends(user: SessionUser, filters: DashboardFilters): Promise<OverviewTrends> {
  const { principal } = user;
  const previous = previousPeriod(filters);
  const [daily, previousDaily, countries] = await Promise.all([
    getDailyRevenue(principal, filters),
    getDailyRevenue(principal, previous),
    getRevenueByCountry(
      principal,
      toApiQuery(filters, { sortBy: 'revenueAmount', sortDirection: 'desc', pageSize: String(TOP_COUNTRIES) }),
    ),
  ]);
  return { daily, previousDaily, topCountries: countries.data, countryCount: countries.meta.totalRows };
}

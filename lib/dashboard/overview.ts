import type { SessionUser } from '@/lib/services/sessions';
import { getDailyRevenue, type DailyPoint } from '@/lib/services/daily';
import { getRevenueByCountry, getTotals, type RevenueByCountryResponse, type RevenueTotalResponse } from '@/lib/services/reports';
import { listSites, type SiteResponse } from '@/lib/services/sites';
import { previousPeriod, toApiQuery, type DashboardFilters } from './filters';

export interface Overview {
  totals: RevenueTotalResponse;
  previousTotals: RevenueTotalResponse;
  daily: DailyPoint[];
  previousDaily: DailyPoint[];
  topCountries: RevenueByCountryResponse[];
  countryCount: number;
  sites: SiteResponse[];
}

export const TOP_COUNTRIES = 10;

/** Everything the overview shows, from the same services (and so the same numbers) as the API. */
export async function loadOverview(user: SessionUser, filters: DashboardFilters): Promise<Overview> {
  const { principal } = user;
  const previous = previousPeriod(filters);
  const [totals, previousTotals, daily, previousDaily, countries, sites] = await Promise.all([
    getTotals(principal, toApiQuery(filters)),
    getTotals(principal, toApiQuery(previous)),
    getDailyRevenue(principal, filters),
    getDailyRevenue(principal, previous),
    getRevenueByCountry(
      principal,
      toApiQuery(filters, { sortBy: 'revenueAmount', sortDirection: 'desc', pageSize: String(TOP_COUNTRIES) }),
    ),
    listSites(principal),
  ]);
  return {
    totals,
    previousTotals,
    daily,
    previousDaily,
    topCountries: countries.data,
    countryCount: countries.meta.totalRows,
    sites,
  };
}

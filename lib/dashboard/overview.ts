import {
  getDailyRevenue,
  byCountryQuery,
  getRevenueByCountry,
  getTotals,
  getRevenueBySite,
  type DailyPoint,
  type ReportRange,
  type RevenueByCountryResponse,
  type RevenueTotalResponse,
  type SiteRevenue,
} from '@/lib/reports';
import type { Principal } from '@/lib/access';
import { revenueAlertsOf } from '@/lib/alerts';
import type { ChartAlert } from './daily-series';
import { fetchCompared, type CompareMode } from './comparison';

/**
 * The cards' change: the range's complete days against as many days of the compared period (today is still
 * coming in, so a range ending today is measured without it).
 */
export interface Comparison {
  /** The compared period as a whole: the chart's second line, and what the cards name. */
  range: ReportRange;
  current: RevenueTotalResponse;
  previous: RevenueTotalResponse;
  /** Today was left out of the change. */
  excludesToday: boolean;
}

/** What the overview shows first: the KPI cards, with their change if any (the filter bar has its sites). */
export interface OverviewHeadline {
  totals: RevenueTotalResponse;
  comparison: Comparison | null;
}

/** What follows below the cards: the daily series of both periods and the top countries. */
export interface OverviewTrends {
  daily: DailyPoint[];
  previousDaily: DailyPoint[];
  topCountries: RevenueByCountryResponse[];
  countryCount: number;
  /** Every readable site of the range, highest revenue first (the page shows the top ones). */
  siteFigures: SiteRevenue[];
  /** The range's revenue alerts, for the chart's markers. */
  alerts: ChartAlert[];
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
export async function loadHeadline(
  principal: Principal,
  range: ReportRange,
  compare: CompareMode,
  today: string,
): Promise<OverviewHeadline> {
  const { whole, compared, change } = await fetchCompared(range, compare, today, (days) => getTotals(principal, days));
  return { totals: whole, comparison: compared && change ? { range: compared, ...change } : null };
}

/** The chart and top-countries data; the page streams it in after the cards. */
export async function loadTrends(
  principal: Principal,
  range: ReportRange,
  compared: ReportRange | null,
): Promise<OverviewTrends> {
  const [daily, previousDaily, countries, sites, alerts] = await Promise.all([
    getDailyRevenue(principal, range),
    compared ? getDailyRevenue(principal, compared) : [],
    getRevenueByCountry(principal, { ...topCountriesView, ...range }),
    // The top sites are a table without sparklines.
    getRevenueBySite(principal, range, { series: false }),
    revenueAlertsOf(principal, range),
  ]);
  return {
    daily,
    previousDaily,
    topCountries: countries.data,
    countryCount: countries.meta.totalRows,
    siteFigures: sites,
    alerts: alerts.map(({ day, kind, message }) => ({ day: day!, drop: kind === 'revenue.drop', message })),
  };
}

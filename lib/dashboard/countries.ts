import { ValidationError } from '@/lib/shared/errors';
import { PAGE_SIZE_MAX } from '@/lib/query';
import {
  byCountryQuery,
  getRevenueByCountry,
  type ByCountryInput,
  type Paged,
  type ReportRange,
  type RevenueByCountryResponse,
} from '@/lib/reports';
import type { Principal } from '@/lib/access';
import { fetchCompared, type CompareMode } from './comparison';
import { metricsOfByCountry, type MetricId } from './metrics';
import { readView, type SearchParams } from './url';

/** The Countries view's table settings: the API's, except that it opens on the highest revenue first. */
export type CountriesView = Omit<ByCountryInput, keyof ReportRange>;
const COUNTRIES_DEFAULT_SORT = { sortBy: 'revenueAmount', sortDirection: 'desc' } as const;

/** The table's settings from the URL (for the page and its CSV alike), or the 400 to show in their place. */
export function readCountriesView(params: SearchParams | URLSearchParams): CountriesView | ValidationError {
  const view = readView(byCountryQuery, params);
  if (view instanceof ValidationError || view.sortBy) return view;
  return { ...view, ...COUNTRIES_DEFAULT_SORT };
}

export interface ByCountryRow extends RevenueByCountryResponse {
  /** Each metric over the complete days and over as many days of the compared period; null without one. */
  change: { current: Record<MetricId, number>; previous: Record<MetricId, number> } | null;
}

export interface CountryBreakdown {
  report: Paged<ByCountryRow>;
  compared: ReportRange | null;
  /** Every country's revenue over the range, whatever the table's page, filter or search: the map. */
  revenueByCountry: Map<string, number>;
}

/** Every country of a range in one list, whatever the view's page, filter or search (at most one row each). */
const everyCountry = (principal: Principal, range: ReportRange) =>
  getRevenueByCountry(principal, { ...byCountryQuery.parse({}), pageSize: PAGE_SIZE_MAX, ...range });

const NO_FIGURES: Record<MetricId, number> = { revenue: 0, impressions: 0, adRequests: 0, cpm: 0, fillRate: 0 };

/**
 * One page of the Countries table, each row with its change per metric against the compared period, like for
 * like (a range ending today is measured without today, against as many days), and the map's figures.
 */
export async function loadCountryBreakdown(
  principal: Principal,
  view: CountriesView,
  range: ReportRange,
  compare: CompareMode,
  today: string,
): Promise<CountryBreakdown> {
  const [report, { whole: all, compared, change }] = await Promise.all([
    getRevenueByCountry(principal, { ...view, ...range }),
    fetchCompared(range, compare, today, (days) => everyCountry(principal, days)),
  ]);
  const figuresOf = (list: Paged<RevenueByCountryResponse>) =>
    new Map(list.data.map((row) => [row.country, metricsOfByCountry(row)]));
  const figures = change && { now: figuresOf(change.current), before: figuresOf(change.previous) };
  const data = report.data.map((row) => ({
    ...row,
    change: figures
      ? {
          current: figures.now.get(row.country) ?? NO_FIGURES,
          previous: figures.before.get(row.country) ?? NO_FIGURES,
        }
      : null,
  }));
  const revenueByCountry = new Map(all.data.flatMap((row) => (row.country ? [[row.country, row.revenueAmount]] : [])));
  return { report: { data, meta: report.meta }, compared, revenueByCountry };
}

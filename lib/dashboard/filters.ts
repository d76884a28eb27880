import { AppError, ValidationError } from '@/lib/errors';
import { addDays, parseDateRange, parseSiteIds, QueryParams, todayUtc } from '@/lib/query';
import { paramOf } from './url';

/**
 * The dashboard's filter bar state lives in the URL (`?from=&to=&sites=`) so every view can be shared and
 * reloaded. It is read with the API's own grammar (lib/query), under the API's parameter names, so a page
 * accepts exactly what `/api/v1/reports/*` would for the same range and sites.
 */
export interface DashboardFilters {
  from: string;
  to: string;
  /** Null means all sites of the account. */
  sites: string[] | null;
}

export type SearchParams = Record<string, string | string[] | undefined>;

export const DEFAULT_DAYS = 30;

/**
 * The filters in the URL; without dates, the account's default range (its default_range_days, as the API
 * uses) ending today.
 */
export function readFilters(
  searchParams: SearchParams,
  today = todayUtc(),
  defaultDays = DEFAULT_DAYS,
): DashboardFilters | ValidationError {
  try {
    const given = (name: string) => paramOf(searchParams, name);
    const query = QueryParams.from({ fromDate: given('from'), toDate: given('to'), siteIds: given('sites') });
    const { fromDate, toDate } = parseDateRange(query, { defaultDays, today });
    return { from: fromDate, to: toDate, sites: parseSiteIds(query) };
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
}

/** The same filters as API parameters, for the services (which speak the API's grammar). */
export function toApiQuery(filters: DashboardFilters, extra: Record<string, string> = {}): QueryParams {
  return QueryParams.from({
    fromDate: filters.from,
    toDate: filters.to,
    ...(filters.sites ? { siteIds: filters.sites.join(',') } : {}),
    ...extra,
  });
}

/** The period of equal length just before, for "change against the previous period". */
export function previousPeriod(filters: DashboardFilters): DashboardFilters {
  const days = Math.round((Date.parse(filters.to) - Date.parse(filters.from)) / 86_400_000) + 1;
  return { ...filters, from: addDays(filters.from, -days), to: addDays(filters.from, -1) };
}

/** `?from=&to=&sites=` for links, keeping the filters when moving between pages. */
export function filterSearch(filters: DashboardFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ from: filters.from, to: filters.to, ...extra });
  if (filters.sites) params.set('sites', filters.sites.join(','));
  return `?${params}`;
}

/** Answers a page shows in place of its data: bad input (400) or sites it may not read (403). */
export const isFilterProblem = (err: unknown): err is AppError =>
  err instanceof AppError && (err.code === 'invalid' || err.code === 'forbidden');

/** The data, or the filter problem to show instead; anything else (an outage) goes to the error boundary. */
export function orFilterProblem<T>(loading: Promise<T>): Promise<T | AppError> {
  return loading.catch((err: unknown) => (isFilterProblem(err) ? err : Promise.reject(err)));
}

import { countryName } from '@/lib/shared/countries';
import { AppError, badRequest, ValidationError } from '@/lib/shared/errors';
import { getDataSpan, resolveReportRange, type DataSpan, type ReportRange } from '@/lib/reports';
import { listSites, type SiteResponse } from '@/lib/sites';
import type { Principal } from '@/lib/access';
import { paramOf, readSiteDay, type SearchParams } from './url';

/** Answers a page shows in place of its data: bad input (400) or sites it may not read (403). */
const isFilterProblem = (err: unknown): err is AppError =>
  err instanceof AppError && (err.code === 'invalid' || err.code === 'forbidden');

/** The data, or the filter problem to show instead; anything else (an outage) goes to the error boundary. */
export function orFilterProblem<T>(loading: Promise<T>): Promise<T | AppError> {
  return loading.catch((err: unknown) => (isFilterProblem(err) ? err : Promise.reject(err)));
}

export interface FilterBarState {
  /** The range the URL asks for, or the account's default one when the URL cannot be shown. */
  range: ReportRange;
  /** Why the URL's range cannot be shown (shown beside the bar, whose controls stay usable). */
  problem: AppError | null;
  sites: SiteResponse[];
  /** Where the account's data starts ("All time") and when it last changed. */
  span: DataSpan;
}

/** `?country=`: the one viewer country the dashboard is narrowed to, as its code, or why it cannot be. */
export function readCountry(params: SearchParams | URLSearchParams): string | null | ValidationError {
  const given = paramOf(params, 'country');
  if (!given) return null;
  return countryName(given)
    ? given.toUpperCase()
    : badRequest('country', `'${given}' is not an ISO 3166-1 alpha-2 country code, such as DE or US.`);
}

/** The filter bar of a page: its range, sites and country from the URL, or the problem with them and a usable default. */
export async function readFilterBar(principal: Principal, params: SearchParams): Promise<FilterBarState> {
  const days = readSiteDay(params);
  const country = readCountry(params);
  const given =
    days instanceof ValidationError ? days : country instanceof ValidationError ? country : { ...days, country };
  const [resolved, sites, span] = await Promise.all([
    given instanceof ValidationError ? given : orFilterProblem(resolveReportRange(principal, given)),
    listSites(principal),
    getDataSpan(principal),
  ]);
  if (!(resolved instanceof AppError)) return { range: resolved, problem: null, sites, span };
  const fallback = await resolveReportRange(principal, { fromDate: null, toDate: null, siteIds: null, country: null });
  return { range: fallback, problem: resolved, sites, span };
}

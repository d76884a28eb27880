import { AppError, ValidationError } from '@/lib/errors';
import { getDataSpan, type DataSpan } from '@/lib/services/data-span';
import type { Principal } from '@/lib/services/principal';
import { resolveReportRange, type ReportRange } from '@/lib/services/reports';
import { listSites, type SiteResponse } from '@/lib/services/sites';
import { readSiteDay, type SearchParams } from './url';

/** Answers a page shows in place of its data: bad input (400) or sites it may not read (403). */
export const isFilterProblem = (err: unknown): err is AppError =>
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

/** The filter bar of a page: its range and sites from the URL, or the problem with them and a usable default. */
export async function readFilterBar(principal: Principal, params: SearchParams): Promise<FilterBarState> {
  const given = readSiteDay(params);
  const [resolved, sites, span] = await Promise.all([
    given instanceof ValidationError ? given : orFilterProblem(resolveReportRange(principal, given)),
    listSites(principal),
    getDataSpan(principal),
  ]);
  if (!(resolved instanceof AppError)) return { range: resolved, problem: null, sites, span };
  const fallback = await resolveReportRange(principal, { fromDate: null, toDate: null, siteIds: null });
  return { range: fallback, problem: resolved, sites, span };
}

import { AppError } from '@/lib/errors';
import { addDays, daysBetweenInclusive } from '@/lib/query';
import type { ReportRange } from '@/lib/services/reports';

/** The period of equal length just before, for "change against the previous period". */
export function previousPeriod(range: ReportRange): ReportRange {
  const days = daysBetweenInclusive(range.fromDate, range.toDate);
  return { ...range, fromDate: addDays(range.fromDate, -days), toDate: addDays(range.fromDate, -1) };
}

/** Answers a page shows in place of its data: bad input (400) or sites it may not read (403). */
export const isFilterProblem = (err: unknown): err is AppError =>
  err instanceof AppError && (err.code === 'invalid' || err.code === 'forbidden');

/** The data, or the filter problem to show instead; anything else (an outage) goes to the error boundary. */
export function orFilterProblem<T>(loading: Promise<T>): Promise<T | AppError> {
  return loading.catch((err: unknown) => (isFilterProblem(err) ? err : Promise.reject(err)));
}

import { addDays, daysBetweenInclusive, FIRST_DAY } from '@/lib/query/dates';
import type { SearchParams } from './url';
import { paramOf } from './url';

/**
 * What a range is compared with (the cards' change, the chart's second line, the tables' change columns):
 * the period before it, the same days a year earlier, or nothing. In the URL as `compare`.
 */
export const COMPARE_MODES = [
  { id: 'previous', label: 'Previous period' },
  { id: 'year', label: 'Same period last year' },
  { id: 'none', label: 'No comparison' },
] as const;
export type CompareMode = (typeof COMPARE_MODES)[number]['id'];

export interface DayRange {
  fromDate: string;
  toDate: string;
}

export function readCompare(params: SearchParams): CompareMode {
  const given = paramOf(params, 'compare');
  return COMPARE_MODES.find((m) => m.id === given)?.id ?? 'previous';
}

const lastDayOfMonth = (month: string) => addDays(`${nextMonth(month)}-01`, -1);
function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 12
    ? `${String(y + 1).padStart(4, '0')}-01`
    : `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}`;
}
function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 1
    ? `${String(y - 1).padStart(4, '0')}-12`
    : `${String(y).padStart(4, '0')}-${String(m - 1).padStart(2, '0')}`;
}

/** The same day a year earlier; February 29 becomes February 28. */
function yearBefore(day: string): string {
  const year = String(Number(day.slice(0, 4)) - 1).padStart(4, '0');
  return day.endsWith('-02-29') ? `${year}-02-28` : `${year}${day.slice(4)}`;
}

/**
 * The period `range` is compared with, or null for none. "Previous" is the previous calendar month for a
 * whole month, the same days of the previous month for a month to date (up to its last day), and otherwise
 * (a single day included) the days of equal number just before.
 */
export function comparisonRange<R extends DayRange>(range: R, mode: CompareMode): R | null {
  const compared = comparedWith(range, mode);
  // Nothing to compare with before the first day a report can cover (a range early in year 1000).
  return compared && compared.fromDate >= FIRST_DAY ? compared : null;
}

function comparedWith<R extends DayRange>(range: R, mode: CompareMode): R | null {
  const { fromDate, toDate } = range;
  if (mode === 'none') return null;
  if (mode === 'year') return { ...range, fromDate: yearBefore(fromDate), toDate: yearBefore(toDate) };
  const month = fromDate.slice(0, 7);
  if (fromDate.endsWith('-01') && toDate.slice(0, 7) === month && toDate !== fromDate) {
    const before = previousMonth(month);
    const end = toDate === lastDayOfMonth(month) ? lastDayOfMonth(before) : `${before}-${toDate.slice(8)}`;
    const clamped = end > lastDayOfMonth(before) ? lastDayOfMonth(before) : end;
    return { ...range, fromDate: `${before}-01`, toDate: clamped };
  }
  return periodBefore(range);
}

/** The days of equal number just before `range`. */
export function periodBefore<R extends DayRange>(range: R): R {
  const days = daysBetweenInclusive(range.fromDate, range.toDate);
  return { ...range, fromDate: addDays(range.fromDate, -days), toDate: addDays(range.fromDate, -1) };
}

/**
 * Like for like: when a range ends today, today is still coming in, so its change is measured on the days
 * before today against as many days of the comparison. Null when nothing complete is left (just today).
 */
export function completePart<R extends DayRange>(
  range: R,
  comparison: R,
  today: string,
): { range: R; comparison: R } | null {
  if (range.toDate < today) return { range, comparison };
  if (range.fromDate >= today) return null;
  const days = daysBetweenInclusive(range.fromDate, addDays(today, -1));
  const comparedDays = Math.min(days, daysBetweenInclusive(comparison.fromDate, comparison.toDate));
  return {
    range: { ...range, toDate: addDays(today, -1) },
    comparison: { ...comparison, toDate: addDays(comparison.fromDate, comparedDays - 1) },
  };
}

/**
 * What a view compares, in one step: the compared period (null for none) and the like-for-like pair its
 * changes are measured on (null when nothing complete is left); `excludesToday` when today was left out.
 */
function plannedComparison<R extends DayRange>(range: R, mode: CompareMode, today: string) {
  const compared = comparisonRange(range, mode);
  const like = compared && completePart(range, compared, today);
  return { compared, like, excludesToday: !!like && like.range.toDate !== range.toDate };
}

/** A view's figures over its range, and what its change is measured on. */
export interface ComparedFigures<R extends DayRange, T> {
  /** The figures of the whole range. */
  whole: T;
  /** The compared period as a whole, or null for none. */
  compared: R | null;
  /** The range's complete days against as many days of the compared period; null when there is no change to show. */
  change: { current: T; previous: T; excludesToday: boolean } | null;
}

/**
 * Plans a view's comparison and fetches, at once, what it needs: the whole range, the range's complete days
 * when today was left out (otherwise they are the whole range), and the compared days.
 */
export async function fetchCompared<R extends DayRange, T extends object>(
  range: R,
  mode: CompareMode,
  today: string,
  fetch: (range: R) => Promise<T>,
): Promise<ComparedFigures<R, T>> {
  const { compared, like, excludesToday } = plannedComparison(range, mode, today);
  const [whole, completeDays, previous] = await Promise.all([
    fetch(range),
    like && excludesToday ? fetch(like.range) : null,
    like ? fetch(like.comparison) : null,
  ]);
  return { whole, compared, change: previous && { current: completeDays ?? whole, previous, excludesToday } };
}

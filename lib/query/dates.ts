/**
 * fromDate / toDate as inclusive UTC days. Days travel as "YYYY-MM-DD" strings end to end so no
 * time zone can shift them; the arithmetic here goes through UTC midnights only.
 */
import { badRequest } from '@/lib/shared/errors';

/** Two years plus a leap day: enough for year-over-year views, small enough to keep reports fast. */
export const MAX_RANGE_DAYS = 731;

/**
 * The first day a date may name. Years before 1000 are refused so that no day needs a sign or a fifth
 * digit; a range is checked against it after its defaults are applied (resolveRange), since a default range
 * ending early in year 1000 would begin before it.
 */
export const FIRST_DAY = '1000-01-01';

const DAY_MS = 86_400_000;
const DAY_FORMAT = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface DateRange {
  fromDate: string;
  toDate: string;
}

/** Midnight UTC of a YYYY-MM-DD day in ms, or NaN when the text is not a real calendar date. */
function dayToMs(day: string): number {
  const m = DAY_FORMAT.exec(day);
  if (!m) return NaN;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1000) return NaN; // FIRST_DAY
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  // Date.UTC rolls 2026-02-30 over to March; a round trip exposes that.
  return back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? ms : NaN;
}

const msToDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** True for a strict YYYY-MM-DD that names a real day (years 1000–9999). */
export function isDay(s: string): boolean {
  return !Number.isNaN(dayToMs(s));
}

export function todayUtc(now: Date = new Date()): string {
  return msToDay(now.getTime());
}

export function addDays(day: string, n: number): string {
  return msToDay(dayToMs(day) + n * DAY_MS);
}

/** Number of days from a to b counting both ends: (d, d) → 1. */
export function daysBetweenInclusive(a: string, b: string): number {
  return Math.round((dayToMs(b) - dayToMs(a)) / DAY_MS) + 1;
}

/** Every day from `from` to `to` inclusive, for zero-filling charts; empty when from > to. */
export function eachDay(from: string, to: string): string[] {
  return isDay(from) && isDay(to) ? daysFrom(from, Math.max(0, daysBetweenInclusive(from, to))) : [];
}

const daysInMonth = (year: number, month: number) =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;
const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * `count` days in a row from `first` (a real day), counted on the calendar: no Date per day, as a year's
 * chart and its comparison are 730 of them per page and a Date costs microseconds under Next.js.
 */
export function daysFrom(first: string, count: number): string[] {
  const [year, month, day] = first.split('-').map(Number);
  const days = new Array<string>(count);
  for (let i = 0, y = year, m = month, d = day; i < count; i++) {
    days[i] = `${y}-${twoDigits(m)}-${twoDigits(d)}`;
    if (++d > daysInMonth(y, m)) [d, m] = [1, m + 1];
    if (m > 12) [m, y] = [1, y + 1];
  }
  return days;
}

/** One end of a range: a real calendar day written YYYY-MM-DD. */
export function parseDay(raw: string, parameter: 'fromDate' | 'toDate'): string {
  if (isDay(raw)) return raw;
  throw badRequest(
    parameter,
    DAY_FORMAT.test(raw)
      ? `${JSON.stringify(raw)} is not a real calendar date`
      : `must be a date in YYYY-MM-DD format (UTC), got ${JSON.stringify(raw)}`,
  );
}

/** The ends a request gave (each already a real day), or null where it gave none. */
export interface DaySelection {
  fromDate: string | null;
  toDate: string | null;
}

/**
 * Resolves the requested range. Omitted ends default so that the range is `defaultDays` long and ends
 * today (or at the given toDate); a lone fromDate runs to today. Every report's range comes through here
 * (reportScope), so a range it returns is one the day arithmetic can work with.
 */
export function resolveRange(given: DaySelection, opts: { defaultDays: number; today: string }): DateRange {
  if (!Number.isInteger(opts.defaultDays) || opts.defaultDays < 1 || opts.defaultDays > MAX_RANGE_DAYS) {
    throw new RangeError(`defaultDays must be an integer in 1..${MAX_RANGE_DAYS}, got ${opts.defaultDays}`);
  }
  const toDate = given.toDate ?? opts.today;
  const fromDate = given.fromDate ?? addDays(toDate, -(opts.defaultDays - 1));
  // Say where an end came from when the caller did not write it; otherwise the message looks wrong.
  const toText = given.toDate === null ? `toDate (defaulted to today, ${toDate})` : `toDate ${toDate}`;

  if (given.fromDate === null && !isDay(fromDate)) {
    throw badRequest(
      'toDate',
      `${toText} with the default range of ${opts.defaultDays} days would begin on ${fromDate}, before ${FIRST_DAY}, the first day a report can cover; give a fromDate too`,
    );
  }
  // Ends a caller computed rather than parsed (a dashboard's comparison period) may fall outside the days too.
  for (const [parameter, day] of [
    ['fromDate', fromDate],
    ['toDate', toDate],
  ] as const) {
    if (!isDay(day)) throw badRequest(parameter, `${parameter} ${day} is not a day from ${FIRST_DAY} on`);
  }
  if (fromDate > toDate) throw badRequest('fromDate', `fromDate ${fromDate} is after ${toText}`);
  const days = daysBetweenInclusive(fromDate, toDate);
  if (days > MAX_RANGE_DAYS) {
    throw badRequest(
      'fromDate',
      `fromDate ${fromDate} to ${toText} spans ${days} days (inclusive); at most ${MAX_RANGE_DAYS} are allowed`,
    );
  }
  return { fromDate, toDate };
}

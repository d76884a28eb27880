/**
 * Which rollup rows sum some sites by country over a range of days, with their signs: the grain that grows with
 * sites × countries, so it reads as few rows per site and country as the rollup allows
 * (db/migrations/0020_rollup_day_spans.sql):
 *
 * - A run of days within a month is the difference of two prefixes of a Fenwick tree over the month's days: the
 *   prefix of days 1…x is node x, then node x − lowbit(x), and so on (at most five nodes). Node i holds the
 *   lowbit(i) days ending on day i: a single day (grain d, from revenue_daily) or a span of 2, 4, 8 or 16 days
 *   (grains t, f, e, s, keyed by their first day). A run that ends with its month may instead be the month less
 *   the prefix before it, when that reads fewer rows.
 * - The whole months of a calendar year are read by year, quarter and month, or as the year less the others.
 *
 * Nodes in both prefixes cancel, so 2026-03-09 … 2026-03-13 is node 12 (days 9–12) and day 13, not eight nodes.
 */
import { addDays } from '@/lib/query';

type SiteCountryGrain = 'd' | 't' | 'f' | 'e' | 's' | 'm' | 'q' | 'y';

export interface SignedPeriod {
  grain: SiteCountryGrain;
  /** The first day of the day, span, month, quarter or year. */
  period: string;
  sign: 1 | -1;
}

const SPAN_GRAINS: Record<number, SiteCountryGrain> = { 1: 'd', 2: 't', 4: 'f', 8: 'e', 16: 's' };
/** A single day is a row of revenue_daily, read from the table; the others are entries of a covering index. */
const READ_COST: Record<SiteCountryGrain, number> = { d: 4, t: 1, f: 1, e: 1, s: 1, m: 1, q: 1, y: 1 };

const lowbit = (i: number) => i & -i;
const pad = (n: number) => String(n).padStart(2, '0');
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Rows keyed `grain:period`, with how many times each is added (negative: subtracted). */
type Terms = Map<string, number>;

function add(terms: Terms, grain: SiteCountryGrain, period: string, times: number) {
  const key = `${grain}:${period}`;
  const total = (terms.get(key) ?? 0) + times;
  if (total === 0) terms.delete(key);
  else terms.set(key, total);
}

/** Adds `times` × days 1…x of the month that starts on `first`. */
function addPrefix(terms: Terms, first: string, x: number, times: number) {
  for (let i = x; i > 0; i -= lowbit(i)) add(terms, SPAN_GRAINS[lowbit(i)], addDays(first, i - lowbit(i)), times);
}

const cost = (terms: Terms) =>
  [...terms].reduce((sum, [key, times]) => sum + READ_COST[key[0] as SiteCountryGrain] * Math.abs(times), 0);

const cheaper = (a: Terms, b: Terms) => (cost(b) < cost(a) ? b : a);

/** Days a…b of the month that starts on `first` (whose length is `length`). */
function daysOfMonth(terms: Terms, first: string, a: number, b: number, length: number) {
  const difference: Terms = new Map();
  addPrefix(difference, first, b, 1);
  addPrefix(difference, first, a - 1, -1);
  let best = difference;
  if (b === length) {
    const monthLess: Terms = new Map([[`m:${first}`, 1]]);
    addPrefix(monthLess, first, a - 1, -1);
    best = cheaper(best, monthLess);
  }
  for (const [key, times] of best) add(terms, key[0] as SiteCountryGrain, key.slice(2), times);
}

/** Months m1…m2 (1–12) of `year` by month, quarter and year: directly, or as the year less the others. */
function monthsOfYear(terms: Terms, year: number, m1: number, m2: number) {
  const monthly = (into: Terms, from: number, to: number, times: number) => {
    for (let m = from; m <= to;) {
      if (m === 1 && to === 12) {
        add(into, 'y', `${year}-01-01`, times);
        m = 13;
      } else if ((m - 1) % 3 === 0 && m + 2 <= to) {
        add(into, 'q', `${year}-${pad(m)}-01`, times);
        m += 3;
      } else {
        add(into, 'm', `${year}-${pad(m)}-01`, times);
        m += 1;
      }
    }
  };
  const direct: Terms = new Map();
  monthly(direct, m1, m2, 1);
  const yearLess: Terms = new Map([[`y:${year}-01-01`, 1]]);
  monthly(yearLess, 1, m1 - 1, -1);
  monthly(yearLess, m2 + 1, 12, -1);
  for (const [key, times] of cheaper(direct, yearLess)) add(terms, key[0] as SiteCountryGrain, key.slice(2), times);
}

/** The signed rows that sum the inclusive range of UTC days [fromDate, toDate] (YYYY-MM-DD). */
export function siteCountryPeriods(fromDate: string, toDate: string): SignedPeriod[] {
  const terms: Terms = new Map();
  let wholeMonths: { year: number; from: number; to: number } | null = null;
  const flushMonths = () => {
    if (wholeMonths) monthsOfYear(terms, wholeMonths.year, wholeMonths.from, wholeMonths.to);
    wholeMonths = null;
  };
  for (let start = fromDate; start <= toDate;) {
    const [year, month, day] = start.split('-').map(Number);
    const length = daysIn(year, month);
    const first = `${start.slice(0, 8)}01`;
    const last = `${start.slice(0, 8)}${pad(length)}`;
    const end = toDate < last ? toDate : last;
    const endDay = Number(end.slice(8, 10));
    if (day === 1 && endDay === length) {
      if (wholeMonths && wholeMonths.year === year) wholeMonths.to = month;
      else {
        flushMonths();
        wholeMonths = { year, from: month, to: month };
      }
    } else {
      daysOfMonth(terms, first, day, endDay, length);
    }
    start = addDays(end, 1);
  }
  flushMonths();
  const periods: SignedPeriod[] = [];
  for (const [key, times] of terms) {
    const row = { grain: key[0] as SiteCountryGrain, period: key.slice(2) };
    // A node counted twice (it cannot happen with the pieces above, but the sum would stay exact) is two rows.
    for (let n = 0; n < Math.abs(times); n++) periods.push({ ...row, sign: times > 0 ? 1 : -1 });
  }
  return periods;
}

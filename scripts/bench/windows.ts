import fc from 'fast-check';
import { addDays } from '@/lib/query';

/** What a BI tool or a publisher comparing seasons asks: some sites over some range of days. */
export interface Window {
  fromDate: string;
  toDate: string;
  siteIds: string[];
}

export interface WindowShape {
  /** Sites per window, inclusive bounds, drawn from the account's. */
  sites: [number, number];
  /** Days per window, inclusive bounds (the API takes up to 731). */
  days: [number, number];
  /** The same seed gives the same windows, so runs compare. */
  seed: number;
}

/** How far back a window may end: the large data set holds the last 730 days. */
const SPAN_DAYS = 730;

/**
 * `count` windows of the given shape ending within the data set's span before `today`: each a different range
 * and subset, as fast-check samples them (deterministic for a seed).
 */
export function windowsOf(today: string, siteIds: string[], shape: WindowShape, count: number): Window[] {
  const [minSites, maxSites] = shape.sites.map((n) => Math.min(n, siteIds.length));
  const window = fc.integer({ min: shape.days[0], max: shape.days[1] }).chain((days) =>
    fc.record({
      days: fc.constant(days),
      endsBack: fc.integer({ min: 0, max: Math.max(0, SPAN_DAYS - days) }),
      siteIds: fc.shuffledSubarray(siteIds, { minLength: minSites, maxLength: maxSites }),
    }),
  );
  return fc.sample(window, { seed: shape.seed, numRuns: count }).map(({ days, endsBack, siteIds: picked }) => {
    const toDate = addDays(today, -endsBack);
    return { fromDate: addDays(toDate, -(days - 1)), toDate, siteIds: picked };
  });
}

/** The window as query parameters of totals and by-country. */
export const windowParams = (w: Window) => ({ fromDate: w.fromDate, toDate: w.toDate, siteIds: w.siteIds.join(',') });

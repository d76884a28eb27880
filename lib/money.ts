/**
 * Money is integer micro-dollars everywhere inside the system; these are the only conversions to the
 * JSON numbers of the API. Ratios come from sums, never from averaging ratios.
 */
const MICROS_PER_USD = 1_000_000;

export const usdFromMicros = (micros: number) => micros / MICROS_PER_USD;

/** Effective revenue per 1,000 impressions, USD; 0 when nothing was shown. */
export const cpmOf = (revenueMicros: number, impressions: number) =>
  impressions === 0 ? 0 : ((revenueMicros / impressions) * 1000) / MICROS_PER_USD;

/** Impressions per ad request, 0..1; 0 when nothing was requested. */
export const fillRateOf = (impressions: number, adRequests: number) =>
  adRequests === 0 ? 0 : impressions / adRequests;

/**
 * Money is integer micro-dollars everywhere inside the system; these are the only conversions to the
 * JSON numbers of the API. Ratios come from sums, never from averaging ratios.
 */
const MICROS_PER_USD = 1_000_000;

export const usdFromMicros = (micros: number) => micros / MICROS_PER_USD;

/**
 * Dollars and cents from micro-dollars ("1234.57"), half a cent rounded up: exact, where rounding a double is
 * not. Downloads, statements and payments round here, once.
 */
export function dollars(micros: number): string {
  const cents = Math.round(micros / 10_000);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Effective revenue per 1,000 impressions, USD; 0 when nothing was shown. */
export const cpmOf = (revenueMicros: number, impressions: number) =>
  impressions === 0 ? 0 : ((revenueMicros / impressions) * 1000) / MICROS_PER_USD;

/** Impressions per ad request, 0..1; 0 when nothing was requested. */
export const fillRateOf = (impressions: number, adRequests: number) =>
  adRequests === 0 ? 0 : impressions / adRequests;

export interface Sums {
  revenueMicros: number;
  impressions: number;
  adRequests: number;
  clicks: number;
}

/**
 * A report row's figures: its sums, which add up exactly (a download's totals), and from them the money in USD
 * and the ratios, which the dashboard shows.
 */
export interface Metrics extends Sums {
  revenue: number;
  cpm: number;
  fillRate: number;
}

export const NO_SUMS: Sums = { revenueMicros: 0, impressions: 0, adRequests: 0, clicks: 0 };

/** Two groups' sums as one group's (integers: exact). */
export const addSums = (a: Sums, b: Sums): Sums => ({
  revenueMicros: a.revenueMicros + b.revenueMicros,
  impressions: a.impressions + b.impressions,
  adRequests: a.adRequests + b.adRequests,
  clicks: a.clicks + b.clicks,
});

export function metricsOf({ revenueMicros, impressions, adRequests, clicks }: Sums): Metrics {
  return {
    revenueMicros,
    revenue: usdFromMicros(revenueMicros),
    impressions,
    adRequests,
    clicks,
    cpm: cpmOf(revenueMicros, impressions),
    fillRate: fillRateOf(impressions, adRequests),
  };
}

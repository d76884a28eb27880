/**
 * When revenue is unusual, written once (README, "Alerts"). A complete day's revenue is compared with the same
 * weekday of the 8 weeks before: expected is their median, and the band around it is k scaled MADs wide (the
 * median absolute deviation × 1.4826 estimates a standard deviation, and one odd week moves neither). A day
 * outside the band alerts only if the change is also at least MIN_CHANGE_USD and MIN_CHANGE_SHARE of the
 * expected: a steady site's band is narrow, and a tiny site's whole day is a few cents. With revenue whose
 * same-weekday noise is 10 %, about 0.4 % of ordinary days alert and 99 % of days that lost 60 % do
 * (tests/unit/alert-rules.test.ts bounds both).
 */
export const REVENUE_BAND = {
  weeks: 8,
  /** Reference weekdays with rows needed; a site newer than that is not judged yet. */
  minHistory: 6,
  k: 3,
  madScale: 1.4826,
  minChangeMicros: 10_000_000,
  minChangeShare: 0.3,
} as const;

/** Days older than this (complete days before today) are not judged: a backfill of last year alerts nobody. */
export const ALERT_LOOKBACK_DAYS = 14;

/** `data.missing`: a live site without rows on this many complete days in a row, after rows before. */
export const MISSING_AFTER_DAYS = 2;
/** A site whose data stopped longer ago than this is not reported again (a new deployment's first scan). */
export const MISSING_LOOKBACK_DAYS = 30;

/** `key.expiring`: an API key this many days before its expiresAt. */
export const KEY_EXPIRING_DAYS = 7;

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface RevenueJudgement {
  expectedMicros: number;
  actualMicros: number;
  /** The band's edges: a day inside them is usual. */
  lowMicros: number;
  highMicros: number;
  kind: 'revenue.drop' | 'revenue.spike' | null;
}

/** Judges one day's revenue against the same weekday's history (null: too little history to judge). */
export function judgeRevenue(actualMicros: number, history: readonly number[]): RevenueJudgement | null {
  if (history.length < REVENUE_BAND.minHistory) return null;
  const expected = median(history);
  const mad = median(history.map((v) => Math.abs(v - expected)));
  const width = Math.max(
    REVENUE_BAND.k * REVENUE_BAND.madScale * mad,
    REVENUE_BAND.minChangeMicros,
    REVENUE_BAND.minChangeShare * expected,
  );
  const change = actualMicros - expected;
  const kind = Math.abs(change) < width ? null : change < 0 ? 'revenue.drop' : 'revenue.spike';
  return {
    expectedMicros: Math.round(expected),
    actualMicros,
    lowMicros: Math.max(0, Math.round(expected - width)),
    highMicros: Math.round(expected + width),
    kind,
  };
}

/** How long a retry waits: exponential from `firstMs`, capped at `maxMs`. */
export interface Backoff {
  firstMs: number;
  maxMs: number;
}

/**
 * The wait after the n-th failed attempt (n ≥ 1): between half and all of firstMs·2^(n−1) (capped), so that
 * workers do not retry in step and a wait is never shorter than the previous attempt's longest.
 */
export function backoffMs(attempts: number, { firstMs, maxMs }: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, firstMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling * (0.5 + random() * 0.5));
}

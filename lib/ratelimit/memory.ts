import type { RateLimitResult, RateLimitStore } from './index';

export interface MemoryStore extends RateLimitStore {
  now(): number;
  /** Counters held right now: bounded by the buckets active in the current window (tests check it). */
  size(): number;
}

/**
 * Fixed-window counters in this process's memory: exact for one instance because JavaScript runs the
 * increment without interleaving. Windows are aligned to the clock (minute boundaries for 60 s).
 * Counters are kept per bucket and window length, and dropped once their window has ended.
 */
export function createMemoryStore(now: () => number = Date.now): MemoryStore {
  const counters = new Map<string, { reset: number; count: number }>();
  // The earliest end of a window still held: nothing can be swept before then.
  let nextSweep = Infinity;
  const sweep = (t: number) => {
    nextSweep = Infinity;
    for (const [id, counter] of counters) {
      if (counter.reset <= t) counters.delete(id);
      else nextSweep = Math.min(nextSweep, counter.reset);
    }
  };
  return {
    now,
    size: () => counters.size,
    async reset(bucket, _limit, windowMs) {
      counters.delete(`${windowMs}:${bucket}`);
    },
    async hit(bucket, limit, windowMs): Promise<RateLimitResult> {
      const t = now();
      if (t >= nextSweep) sweep(t);
      const reset = (Math.floor(t / windowMs) + 1) * windowMs;
      const id = `${windowMs}:${bucket}`;
      let counter = counters.get(id);
      if (!counter || counter.reset !== reset) {
        counter = { reset, count: 0 };
        counters.set(id, counter);
        nextSweep = Math.min(nextSweep, reset);
      }
      counter.count += 1;
      return {
        success: counter.count <= limit,
        limit,
        remaining: Math.max(0, limit - counter.count),
        reset,
      };
    },
  };
}

import type { RateLimitResult, RateLimitStore } from './index';

/**
 * Fixed-window counters in this process's memory: exact for one instance because JavaScript runs the
 * increment without interleaving. Windows are aligned to the clock (minute boundaries for 60 s).
 */
export function createMemoryStore(now: () => number = Date.now): RateLimitStore {
  const counters = new Map<string, { window: number; count: number }>();
  let sweptWindow = 0;
  return {
    now,
    async hit(bucket, limit, windowMs): Promise<RateLimitResult> {
      const t = now();
      const window = Math.floor(t / windowMs);
      if (window !== sweptWindow) {
        // Drop counters of past windows so memory stays bounded by the keys active in one window.
        for (const [k, v] of counters) if (v.window < window) counters.delete(k);
        sweptWindow = window;
      }
      let counter = counters.get(bucket);
      if (!counter || counter.window !== window) {
        counter = { window, count: 0 };
        counters.set(bucket, counter);
      }
      counter.count += 1;
      return {
        success: counter.count <= limit,
        limit,
        remaining: Math.max(0, limit - counter.count),
        reset: (window + 1) * windowMs,
      };
    },
  };
}

import { Ratelimit } from '@upstash/ratelimit';
import type { RateLimitResult, RateLimitStore } from './index';
import { createMemoryStore } from './memory';
import {
  answerOf,
  DEFAULT_TIMEOUT_MS,
  unavailableWarner,
  type UpstashConnection,
  upstashRedis,
} from './upstash-client';

export interface UpstashStoreOptions extends UpstashConnection {
  /** Counts while Upstash is unavailable, so the limit still holds per instance and headers stay truthful. */
  fallback?: RateLimitStore;
}

/**
 * Fixed-window counters in Upstash Redis, shared by every instance (Vercel, several servers):
 * `@upstash/ratelimit`'s fixed window INCRs in one Lua script, so concurrent requests are counted exactly.
 * When Upstash errors or does not answer within `timeoutMs`, the request is counted in this process instead
 * and a warning is logged at most once a minute; the API never fails or hangs because of the limiter.
 */
export function createUpstashStore(options: UpstashStoreOptions): RateLimitStore {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const fallback = options.fallback ?? createMemoryStore(now);
  const redis = upstashRedis(options);
  const limiters = new Map<string, Ratelimit>();
  const limiterFor = (limit: number, windowMs: number) => {
    const id = `${limit}/${windowMs}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new Ratelimit({
        redis,
        limiter: Ratelimit.fixedWindow(limit, `${windowMs} ms`),
        prefix: 'portal:ratelimit',
        // Our own deadline below instead of the library's plain timer (which also answers with limit 0).
        timeout: 0,
        analytics: false,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  };

  const warnUnavailable = unavailableWarner(options, 'counting');
  return {
    now,
    async reset(bucket, limit, windowMs) {
      // Counted locally while Upstash failed: clear both. A reset Upstash cannot take only warns.
      await fallback.reset(bucket, limit, windowMs);
      const done = await answerOf(limiterFor(limit, windowMs).resetUsedTokens(bucket), timeoutMs);
      if ('unavailable' in done) warnUnavailable(done.unavailable);
    },
    async hit(bucket, limit, windowMs): Promise<RateLimitResult> {
      const got = await answerOf(limiterFor(limit, windowMs).limit(bucket), timeoutMs);
      const result = 'answer' in got && got.answer.reason !== 'timeout' ? got.answer : null;
      if (!result) {
        warnUnavailable('unavailable' in got ? got.unavailable : `no answer within ${timeoutMs} ms`);
        return fallback.hit(bucket, limit, windowMs);
      }
      // The library counts windows on the real clock (Date.now()); state the window's end on this store's
      // clock, which Retry-After is measured on (they differ only when a test injects `now`).
      const reset = options.now ? now() + (result.reset - Date.now()) : result.reset;
      return { success: result.success, limit, remaining: result.remaining, reset };
    },
  };
}

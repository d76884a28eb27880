import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import type { RateLimitResult, RateLimitStore } from './index';
import { createMemoryStore } from './memory';

export interface UpstashStoreOptions {
  url: string;
  token: string;
  /** Longest a request waits for Upstash before it is served anyway (fail open). */
  timeoutMs?: number;
  /** Counts while Upstash is unavailable, so the limit still holds per instance and headers stay truthful. */
  fallback?: RateLimitStore;
  warn?: (message: string) => void;
  now?: () => number;
}

const WARN_EVERY_MS = 60_000;

/**
 * Fixed-window counters in Upstash Redis, shared by every instance (Vercel, several servers):
 * `@upstash/ratelimit`'s fixed window INCRs in one Lua script, so concurrent requests are counted exactly.
 * When Upstash errors or does not answer within `timeoutMs`, the request is counted in this process instead
 * and a warning is logged at most once a minute; the API never fails or hangs because of the limiter.
 */
export function createUpstashStore(options: UpstashStoreOptions): RateLimitStore {
  const timeoutMs = options.timeoutMs ?? 1000;
  const now = options.now ?? Date.now;
  const fallback = options.fallback ?? createMemoryStore(now);
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const redis = new Redis({
    url: options.url,
    token: options.token,
    // No retries with back-off (≈4 s by default) and a hard deadline per HTTP call: the limiter must answer fast.
    retry: false,
    signal: () => AbortSignal.timeout(timeoutMs),
    enableTelemetry: false,
  });
  const limiters = new Map<string, Ratelimit>();
  const limiterFor = (limit: number, windowMs: number) => {
    const id = `${limit}/${windowMs}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new Ratelimit({
        redis,
        limiter: Ratelimit.fixedWindow(limit, `${windowMs} ms`),
        prefix: 'portal:ratelimit',
        timeout: timeoutMs,
        analytics: false,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  };

  let lastWarning = -Infinity;
  const failOpen = (bucket: string, limit: number, windowMs: number, reason: string): Promise<RateLimitResult> => {
    if (now() - lastWarning >= WARN_EVERY_MS) {
      lastWarning = now();
      warn(`[ratelimit] Upstash unavailable (${reason}); counting in this process until it answers again.`);
    }
    return fallback.hit(bucket, limit, windowMs);
  };

  return {
    now,
    async hit(bucket, limit, windowMs) {
      try {
        const result = await limiterFor(limit, windowMs).limit(bucket);
        // On its own timeout the library lets the request pass with limit 0: use our local count instead.
        if (result.reason === 'timeout') return failOpen(bucket, limit, windowMs, `no answer within ${timeoutMs} ms`);
        return { success: result.success, limit, remaining: result.remaining, reset: result.reset };
      } catch (err) {
        return failOpen(bucket, limit, windowMs, err instanceof Error ? err.message.slice(0, 200) : String(err));
      }
    },
  };
}

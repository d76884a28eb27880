import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import type { RateLimitResult, RateLimitStore } from './index';
import { createMemoryStore } from './memory';
import { log } from '@/lib/platform/log';

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
/** Extra time an HTTP call to Upstash may live after we stopped waiting for it, before it is aborted. */
const ABORT_AFTER_MS = 1_000;

const TIMED_OUT = Symbol('timed out');

/** The next turn of the event loop after pending I/O has been read (setImmediate), or the nearest thing. */
function afterIo(fn: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(fn);
  else setTimeout(fn, 0);
}

/**
 * Deadlines counted in time this process was able to listen, not in wall time. A plain timer started when
 * the call is made expires early in effect whenever our own process stalls: embedded PGlite answering a
 * burst runs for seconds in microtasks alone, during which requests to Upstash are not even sent and
 * answers sit unread, and timers are served before I/O once the loop turns again. That stall is not
 * Upstash being slow. So a shared ticker credits each waiting deadline with the time between its ticks,
 * but with at most two ticks' worth after a late one; and a deadline that runs out resolves only after the
 * loop has read whatever arrived meanwhile. A real hang still ends after ~ms of a responsive process.
 */
const TICK_MS = 20;
interface Waiting {
  left: number;
  last: number;
  done: () => void;
}
const waiting = new Set<Waiting>();
let ticker: ReturnType<typeof setInterval> | undefined;

function tick() {
  const t = performance.now();
  for (const w of waiting) {
    w.left -= Math.min(t - w.last, 2 * TICK_MS);
    w.last = t;
    if (w.left <= 0) {
      waiting.delete(w);
      afterIo(w.done);
    }
  }
  if (waiting.size === 0 && ticker) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

function listenFor(ms: number): { promise: Promise<typeof TIMED_OUT>; cancel(): void } {
  let entry: Waiting | undefined;
  const promise = new Promise<typeof TIMED_OUT>((resolve) => {
    entry = { left: ms, last: performance.now(), done: () => resolve(TIMED_OUT) };
    waiting.add(entry);
    if (!ticker) {
      ticker = setInterval(tick, TICK_MS);
      (ticker as { unref?: () => void }).unref?.(); // never what keeps a process alive
    }
  });
  return {
    promise,
    cancel: () => void (entry && waiting.delete(entry)),
  };
}

/** Aborts an HTTP call some time after the caller stopped waiting for it, so a hung socket is not kept. */
function abortSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  void listenFor(ms).promise.then(() => controller.abort(new Error(`Upstash did not answer within ${ms} ms`)));
  return controller.signal;
}

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
  const warn = options.warn ?? ((message: string) => log.warn(message));
  const redis = new Redis({
    url: options.url,
    token: options.token,
    // No retries with back-off (≈4 s by default); every HTTP call is aborted a while after we gave up on it.
    retry: false,
    signal: () => abortSignal(timeoutMs + ABORT_AFTER_MS),
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
        // Our own deadline below instead of the library's plain timer (which also answers with limit 0).
        timeout: 0,
        analytics: false,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  };

  let lastWarning = -Infinity;
  const warnUnavailable = (reason: string) => {
    if (now() - lastWarning >= WARN_EVERY_MS) {
      lastWarning = now();
      warn(`[ratelimit] Upstash unavailable (${reason}); counting in this process until it answers again.`);
    }
  };
  const failOpen = (bucket: string, limit: number, windowMs: number, reason: string): Promise<RateLimitResult> => {
    warnUnavailable(reason);
    return fallback.hit(bucket, limit, windowMs);
  };
  const reasonOf = (err: unknown) => (err instanceof Error ? err.message.slice(0, 200) : String(err));

  return {
    now,
    async reset(bucket, limit, windowMs) {
      // Counted locally while Upstash failed: clear both. A reset Upstash cannot take only warns.
      await fallback.reset(bucket, limit, windowMs);
      const timer = listenFor(timeoutMs);
      try {
        const done = await Promise.race([limiterFor(limit, windowMs).resetUsedTokens(bucket), timer.promise]);
        if (done === TIMED_OUT) warnUnavailable(`no answer within ${timeoutMs} ms`);
      } catch (err) {
        warnUnavailable(reasonOf(err));
      } finally {
        timer.cancel();
      }
    },
    async hit(bucket, limit, windowMs) {
      const timer = listenFor(timeoutMs);
      try {
        const result = await Promise.race([limiterFor(limit, windowMs).limit(bucket), timer.promise]);
        if (result === TIMED_OUT || result.reason === 'timeout') {
          return failOpen(bucket, limit, windowMs, `no answer within ${timeoutMs} ms`);
        }
        // The library counts windows on the real clock (Date.now()); state the window's end on this store's
        // clock, which Retry-After is measured on (they differ only when a test injects `now`).
        const reset = options.now ? now() + (result.reset - Date.now()) : result.reset;
        return { success: result.success, limit, remaining: result.remaining, reset };
      } catch (err) {
        return failOpen(bucket, limit, windowMs, reasonOf(err));
      } finally {
        timer.cancel();
      }
    },
  };
}

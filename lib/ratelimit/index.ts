import { createMemoryStore } from './memory';

/** The spec's limit: 120 requests per minute per key, fixed window. */
export const KEY_LIMIT = 120;
export const WINDOW_MS = 60_000;

export interface RateLimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends, epoch milliseconds. */
  reset: number;
}

/** A counter store; in-process by default, Upstash when configured (issue 3). */
export interface RateLimitStore {
  hit(bucket: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /** The store's clock (epoch ms), when it is not Date.now(): `reset` is measured on it, and so is Retry-After. */
  now?(): number;
}

const slot = globalThis as unknown as { __portalRateLimit?: RateLimitStore };

export function getRateLimitStore(): RateLimitStore {
  return (slot.__portalRateLimit ??= createMemoryStore());
}

/** Tests install a store of their own (e.g. with an injected clock). */
export function setRateLimitStore(store: RateLimitStore | undefined) {
  slot.__portalRateLimit = store;
}

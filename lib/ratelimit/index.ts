import { env } from '@/lib/platform/env';
import { createMemoryStore } from './memory';
import { createMemorySlots, type SlotStore } from './slots';
import { createUpstashStore } from './upstash';
import { createUpstashSlots } from './upstash-slots';

/** Requests per window per key: RATE_LIMIT_PER_MINUTE, 120 unless configured. */
export const keyLimit = (): number => env().RATE_LIMIT_PER_MINUTE;
/**
 * Requests per window per client address without a valid key (ADDRESS_RATE_LIMIT_PER_MINUTE, 30 unless
 * configured): bounds key guessing without touching real keys' quotas.
 */
export const addressLimit = (): number => env().ADDRESS_RATE_LIMIT_PER_MINUTE;
/** Fixed windows of one clock minute. */
export const WINDOW_MS = 60_000;

export interface RateLimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends, epoch milliseconds. */
  reset: number;
}

/** A counter store: in-process by default, Upstash Redis when UPSTASH_REDIS_REST_URL/_TOKEN are set. */
export interface RateLimitStore {
  hit(bucket: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /** Forgets the bucket's count in the current window (a successful sign-in clears its failures). */
  reset(bucket: string, limit: number, windowMs: number): Promise<void>;
  /** The store's clock (epoch ms), when it is not Date.now(): `reset` is measured on it, and so is Retry-After. */
  now?(): number;
}

/** Seconds until a refused caller may try again, on the clock the window was counted with; never less than 1. */
export function secondsUntilReset(store: RateLimitStore, result: RateLimitResult): number {
  const now = store.now?.() ?? Date.now();
  return Math.max(1, Math.ceil((result.reset - now) / 1000));
}

/** Upstash's URL and token when the deployment names both: the limits and the slots then live there. */
function upstashConnection(): { url: string; token: string } | null {
  const { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: token } = env();
  return url && token ? { url, token } : null;
}

function createConfiguredStore(): RateLimitStore {
  const upstash = upstashConnection();
  return upstash ? createUpstashStore(upstash) : createMemoryStore();
}

const slot = globalThis as unknown as { __portalRateLimit?: RateLimitStore; __portalSlots?: SlotStore };

export function getRateLimitStore(): RateLimitStore {
  return (slot.__portalRateLimit ??= createConfiguredStore());
}

/** Tests install a store of their own (e.g. with an injected clock). */
export function setRateLimitStore(store: RateLimitStore | undefined) {
  slot.__portalRateLimit = store;
}

/** The slots of keys' reports and accounts' exports: shared through Upstash when it is configured, as the limits are. */
export function getSlotStore(): SlotStore {
  const upstash = upstashConnection();
  return (slot.__portalSlots ??= upstash ? createUpstashSlots(upstash) : createMemorySlots());
}

/** Tests install a store of their own. */
export function setSlotStore(store: SlotStore | undefined) {
  slot.__portalSlots = store;
}

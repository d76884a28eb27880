import { ADDRESS_LIMIT, getRateLimitStore, KEY_LIMIT, WINDOW_MS } from '@/lib/ratelimit';
import { clientAddress } from './client-address';
import { ProblemError } from './problem';

interface Policy {
  bucket: string;
  limit: number;
  /** Who ran out, for the 429's detail. */
  subject: string;
}

export const keyPolicy = (keyId: string): Policy => ({
  bucket: `key:${keyId}`,
  limit: KEY_LIMIT,
  subject: `This API key has used its ${KEY_LIMIT} requests`,
});

export const addressPolicy = (request: Request): Policy => ({
  bucket: `addr:${clientAddress(request)}`,
  limit: ADDRESS_LIMIT,
  subject: `Your address has made ${ADDRESS_LIMIT} requests without a valid API key`,
});

/**
 * Spends one request of the policy's bucket, sets the X-RateLimit-* headers, and throws 429 once it is empty.
 * X-RateLimit-Limit always states the spec's ceiling (120); Remaining is what is left in the bucket spent.
 */
export async function applyRateLimit(policy: Policy, headers: Headers): Promise<void> {
  const store = getRateLimitStore();
  const result = await store.hit(policy.bucket, policy.limit, WINDOW_MS);
  // Seconds to the window's end on the clock the window was counted with, never less than 1.
  const now = store.now?.() ?? Date.now();
  headers.set('X-RateLimit-Limit', String(KEY_LIMIT));
  headers.set('X-RateLimit-Remaining', String(result.remaining));
  if (!result.success) {
    const retryAfter = Math.max(1, Math.ceil((result.reset - now) / 1000));
    throw new ProblemError({
      status: 429,
      title: 'Too Many Requests',
      detail: `${policy.subject} this minute; retry in ${retryAfter} s.`,
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}

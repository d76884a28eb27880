import { addressLimit, getRateLimitStore, keyLimit, secondsUntilReset, WINDOW_MS } from '@/lib/ratelimit';
import { clientAddress } from './client-address';
import { ProblemError, retryAfterHeader } from './problem';

interface Policy {
  bucket: string;
  limit: number;
  /** Who ran out, for the 429's detail. */
  subject: string;
}

export function keyPolicy(keyId: string): Policy {
  const limit = keyLimit();
  return { bucket: `key:${keyId}`, limit, subject: `This API key has used its ${limit} requests` };
}

export function addressPolicy(request: Request): Policy {
  const limit = addressLimit();
  return {
    bucket: `addr:${clientAddress(request)}`,
    limit,
    subject: `Your address has made ${limit} requests without a valid API key`,
  };
}

/**
 * Spends one request of the policy's bucket, sets the X-RateLimit-* headers, and throws 429 once it is empty.
 * All three describe the bucket spent: Limit is its ceiling (RATE_LIMIT_PER_MINUTE for a key,
 * ADDRESS_RATE_LIMIT_PER_MINUTE for a request without a valid key), Remaining what is left of it, and Reset
 * when its window ends, in Unix epoch seconds (GitHub's convention; windows end on whole minutes).
 */
export async function applyRateLimit(policy: Policy, headers: Headers): Promise<void> {
  const store = getRateLimitStore();
  const result = await store.hit(policy.bucket, policy.limit, WINDOW_MS);
  headers.set('X-RateLimit-Limit', String(policy.limit));
  headers.set('X-RateLimit-Remaining', String(result.remaining));
  headers.set('X-RateLimit-Reset', String(Math.ceil(result.reset / 1000)));
  if (!result.success) {
    const retryAfter = secondsUntilReset(store, result);
    throw new ProblemError({
      status: 429,
      title: 'Too Many Requests',
      detail: `${policy.subject} this minute; retry in ${retryAfter} s.`,
      headers: retryAfterHeader(retryAfter),
    });
  }
}

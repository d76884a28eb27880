import { getRateLimitStore, KEY_LIMIT, WINDOW_MS } from '@/lib/ratelimit';
import { ProblemError } from './problem';

/** Spends one request of the bucket, sets the X-RateLimit-* headers, and throws 429 once it is empty. */
export async function applyRateLimit(bucket: string, headers: Headers): Promise<void> {
  const store = getRateLimitStore();
  const result = await store.hit(bucket, KEY_LIMIT, WINDOW_MS);
  // Seconds to the window's end on the clock the window was counted with, never less than 1.
  const now = store.now?.() ?? Date.now();
  headers.set('X-RateLimit-Limit', String(KEY_LIMIT));
  headers.set('X-RateLimit-Remaining', String(result.remaining));
  if (!result.success) {
    const retryAfter = Math.max(1, Math.ceil((result.reset - now) / 1000));
    throw new ProblemError({
      status: 429,
      title: 'Too Many Requests',
      detail: `This API key has used its ${KEY_LIMIT} requests for this minute; retry in ${retryAfter} s.`,
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
}

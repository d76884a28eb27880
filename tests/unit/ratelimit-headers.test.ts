import { afterEach, describe, expect, it } from 'vitest';
import { ProblemError } from '@/lib/http/problem';
import { addressPolicy, applyRateLimit, keyPolicy } from '@/lib/http/rate-limit';
import { addressLimit, keyLimit, type RateLimitStore, setRateLimitStore, WINDOW_MS } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { stamped } from '../support/client-address';

// applyRateLimit on its own: headers, 429 and Retry-After, with the store's clock injected.
const MINUTE = Date.UTC(2026, 2, 3, 4, 5, 0);
let now = MINUTE;
const clock = () => now;

afterEach(() => setRateLimitStore(undefined));

/** Spends `n` requests of the policy; returns the headers of the last one and the 429 it threw, if any. */
async function spend(policy: Parameters<typeof applyRateLimit>[0], n: number) {
  let headers = new Headers();
  let refused: ProblemError | undefined;
  for (let i = 0; i < n; i++) {
    headers = new Headers();
    refused = undefined;
    try {
      await applyRateLimit(policy, headers);
    } catch (err) {
      if (!(err instanceof ProblemError)) throw err;
      refused = err;
    }
  }
  return { headers, refused };
}

describe('applyRateLimit', () => {
  it('uses the default figures: 120 per key, 30 per address without a valid key, 60 s windows', () => {
    expect(keyLimit()).toBe(120);
    expect(addressLimit()).toBe(30);
    expect(WINDOW_MS).toBe(60_000);
    expect(keyPolicy('abc')).toMatchObject({ bucket: 'key:abc', limit: 120 });
    const request = new Request('http://localhost/api/v1/sites', { headers: stamped('192.0.2.7') });
    expect(addressPolicy(request)).toMatchObject({ bucket: 'addr:192.0.2.7', limit: 30 });
  });

  it('sets Limit 120 and the remaining count, and refuses the 121st with 429, Remaining 0 and Retry-After', async () => {
    now = MINUTE + 1_000;
    setRateLimitStore(createMemoryStore(clock));
    const first = await spend(keyPolicy('k1'), 1);
    expect(first.refused).toBeUndefined();
    expect(first.headers.get('x-ratelimit-limit')).toBe('120');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('119');
    const last = await spend(keyPolicy('k1'), 119);
    expect(last.refused).toBeUndefined();
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    const over = await spend(keyPolicy('k1'), 1);
    expect(over.refused?.status).toBe(429);
    expect(over.refused?.headers['Retry-After']).toBe('59');
    expect(over.headers.get('x-ratelimit-limit')).toBe('120');
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(over.refused?.detail).toContain('59 s');
  });

  // Retry-After = whole seconds to the end of the window, rounded up, at least 1.
  const cases: Array<[offsetMs: number, retryAfter: string]> = [
    [0, '60'],
    [1, '60'],
    [999, '60'],
    [1_000, '59'],
    [30_000, '30'],
    [58_999, '2'],
    [59_000, '1'],
    [59_500, '1'],
    [59_999, '1'],
  ];
  for (const [offset, expected] of cases) {
    it(`Retry-After is ${expected} at :${(offset / 1000).toFixed(3)} of the minute`, async () => {
      now = MINUTE + offset;
      setRateLimitStore(createMemoryStore(clock));
      const { refused } = await spend(keyPolicy('k'), 121);
      expect(refused?.headers['Retry-After']).toBe(expected);
    });
  }

  it('serves again in the next window', async () => {
    now = MINUTE + 59_500;
    setRateLimitStore(createMemoryStore(clock));
    expect((await spend(keyPolicy('k'), 121)).refused?.status).toBe(429);
    now = MINUTE + 60_000;
    const next = await spend(keyPolicy('k'), 1);
    expect(next.refused).toBeUndefined();
    expect(next.headers.get('x-ratelimit-remaining')).toBe('119');
  });

  it('limits an address to 30, and Limit says 30', async () => {
    now = MINUTE + 10_000;
    setRateLimitStore(createMemoryStore(clock));
    const request = new Request('http://localhost/x', { headers: stamped('198.51.100.1') });
    const thirtieth = await spend(addressPolicy(request), 30);
    expect(thirtieth.refused).toBeUndefined();
    expect(thirtieth.headers.get('x-ratelimit-remaining')).toBe('0');
    const over = await spend(addressPolicy(request), 1);
    expect(over.refused?.status).toBe(429);
    expect(over.refused?.headers['Retry-After']).toBe('50');
    expect(over.headers.get('x-ratelimit-limit')).toBe('30');
    expect(over.headers.get('x-ratelimit-reset')).toBe(String((MINUTE + 60_000) / 1000));
  });

  it('states Limit 120 whatever the store reports (never 0), and Retry-After ≥ 1 even for a reset in the past', async () => {
    const odd: RateLimitStore = {
      now: () => 10_000,
      hit: async () => ({ success: false, limit: 0, remaining: 0, reset: 5_000 }),
      reset: async () => {},
    };
    setRateLimitStore(odd);
    const { headers, refused } = await spend(keyPolicy('k'), 1);
    expect(headers.get('x-ratelimit-limit')).toBe('120');
    expect(headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused?.headers['Retry-After']).toBe('1');
  });

  it('falls back to Date.now() for a store without a clock of its own', async () => {
    const reset = Date.now() + 42_300;
    setRateLimitStore({
      hit: async () => ({ success: false, limit: 120, remaining: 0, reset }),
      reset: async () => {},
    });
    const { refused } = await spend(keyPolicy('k'), 1);
    expect(Number(refused?.headers['Retry-After'])).toBeGreaterThanOrEqual(42);
    expect(Number(refused?.headers['Retry-After'])).toBeLessThanOrEqual(43);
  });
});

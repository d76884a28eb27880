import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { get } from '../support/api';
import { newClientAddress, stamped } from '../support/client-address';
import { useTestDatabase } from '../support/db';
import { demoKey } from '../support/keys';
import { expectProblem } from './api-helpers';
import { expectLimitHeaders, manualClock, range, windowEndSeconds } from './ratelimit-helpers';

// Issue 20: answers to requests without a valid key state the per-address limit they are counted against
// (ADDRESS_RATE_LIMIT_PER_MINUTE, 30), not the per-key one, and every X-RateLimit-* answer has a Reset.
useTestDatabase();
const MINUTE = Date.UTC(2026, 6, 1, 9, 30, 0);
const clock = manualClock(MINUTE + 20_500);

beforeEach(() => setRateLimitStore(createMemoryStore(clock.now)));
afterEach(() => setRateLimitStore(undefined));

describe('requests without a valid key', () => {
  it('35 requests for the OpenAPI document from one address: 30 served saying Limit 30, then 429 saying Limit 30', async () => {
    const headers = stamped(newClientAddress());
    const answers = [];
    for (let i = 0; i < 35; i++) answers.push(await get('/api/v1/openapi.json', { headers }));
    expect(answers.map((r) => r.status)).toEqual([...range(30).map(() => 200), ...range(5).map(() => 429)]);
    answers.slice(0, 30).forEach((res, i) => {
      const remaining = expectLimitHeaders(res, `request ${i + 1}`, { limit: 30, now: clock.now() });
      expect(remaining).toBe(29 - i);
    });
    for (const res of answers.slice(30)) {
      expectProblem(res, 429, '/api/v1/openapi.json');
      expectLimitHeaders(res, '429', { limit: 30, now: clock.now() });
      expect(res.headers.get('retry-after')).toBe('40');
    }
  });

  it('health, 401s and 404s without a key say Limit 30; the same address with a key says 120', async () => {
    const address = stamped(newClientAddress());
    const keyless = [
      await get('/api/v1/health', { headers: address }),
      await get('/api/v1/sites', { headers: address }),
      await get('/api/v1/sites', { headers: { ...address, 'X-Api-Key': 'rpk_not_a_key' } }),
      await get('/api/v1/nothing-here', { headers: address }),
    ];
    expect(keyless.map((r) => r.status)).toEqual([200, 401, 401, 404]);
    keyless.forEach((res, i) =>
      expect(expectLimitHeaders(res, `keyless ${i}`, { limit: 30, now: clock.now() })).toBe(29 - i),
    );
    const keyed = await get('/api/v1/sites', { headers: { ...address, 'X-Api-Key': (await demoKey()).raw } });
    expect(keyed.status).toBe(200);
    expect(expectLimitHeaders(keyed, 'keyed', { limit: 120, now: clock.now() })).toBe(119);
  });

  it('X-RateLimit-Reset is the end of the current minute in epoch seconds, and moves on with the window', async () => {
    const headers = stamped(newClientAddress());
    const first = await get('/api/v1/health', { headers });
    expect(first.headers.get('x-ratelimit-reset')).toBe(String((MINUTE + 60_000) / 1000));
    clock.set(MINUTE + 60_000);
    const next = await get('/api/v1/health', { headers });
    expect(next.headers.get('x-ratelimit-reset')).toBe(windowEndSeconds(MINUTE + 60_000));
    expect(Number(next.headers.get('x-ratelimit-reset'))).toBe((MINUTE + 120_000) / 1000);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('29');
    clock.set(MINUTE + 20_500);
  });
});

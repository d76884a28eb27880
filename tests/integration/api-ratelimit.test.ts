import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getRateLimitStore, type RateLimitStore, setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { callApi, get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey, otherLastChar } from '../support/keys';
import { expectProblem } from './api-helpers';

const t = useTestDatabase();

// A clock of the test's own: 1.5 s into a minute, so the window ends in 58.5 s.
const MINUTE = Date.UTC(2026, 5, 1, 10, 0, 0);
let now = MINUTE + 1_500;
let previous: RateLimitStore;

beforeEach(() => {
  previous = getRateLimitStore();
  now = MINUTE + 1_500;
  setRateLimitStore(createMemoryStore(() => now));
});
afterEach(() => setRateLimitStore(previous));

async function freshKey() {
  const user = await createPublisher(t.db);
  await createSite(t.db, user.id);
  return (await issueKey(user.id)).raw;
}

const limitHeaders = (res: { headers: Headers }) => ({
  limit: res.headers.get('x-ratelimit-limit'),
  remaining: res.headers.get('x-ratelimit-remaining'),
});

describe('rate limit of 120 requests per minute per key', () => {
  it('counts down X-RateLimit-Remaining from 119 and refuses the 121st request with 429 and Retry-After', async () => {
    const key = await freshKey();
    for (let i = 1; i <= 120; i++) {
      const res = await get('/api/v1/sites', { key });
      expect(res.status).toBe(200);
      expect(limitHeaders(res)).toEqual({ limit: '120', remaining: String(120 - i) });
    }
    const refused = await get('/api/v1/sites', { key });
    expectProblem(refused, 429, '/api/v1/sites');
    expect(limitHeaders(refused)).toEqual({ limit: '120', remaining: '0' });
    expect(refused.headers.get('retry-after')).toBe('59');

    now = MINUTE + 59_800;
    const later = await get('/api/v1/sites', { key });
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBe('1');

    now = MINUTE + 60_000;
    const next = await get('/api/v1/sites', { key });
    expect(next.status, next.text).toBe(200);
    expect(limitHeaders(next)).toEqual({ limit: '120', remaining: '119' });
  });

  it("keeps each key's count apart, and a refused key does not touch another's", async () => {
    const a = await freshKey();
    const b = await freshKey();
    for (let i = 0; i < 5; i++) await get('/api/v1/sites', { key: a });
    expect(limitHeaders(await get('/api/v1/sites', { key: b }))).toEqual({ limit: '120', remaining: '119' });
    expect(limitHeaders(await get('/api/v1/sites', { key: a }))).toEqual({ limit: '120', remaining: '114' });
  });

  it('counts every endpoint of a key, errors after authentication included, and puts the headers on them', async () => {
    const key = await freshKey();
    const calls = [
      () => get('/api/v1/api-keys', { key }),
      () => get('/api/v1/reports/totals', { key }),
      () => get('/api/v1/revenues/countries?pageSize=1', { key }),
      () => get(`/api/v1/revenues/countries?apiKey=${key}&pageSize=1`),
      () => callApi('DELETE', '/api/v1/api-keys/0d9e8f7a-6b5c-4d3e-9f10-a1b2c3d4e5f6', { key }),
      () => get('/api/v1/reports/by-country?pageSize=0', { key }),
      () => callApi('POST', '/api/v1/api-keys', { key, body: '{', headers: { 'Content-Type': 'application/json' } }),
    ];
    let expected = 120;
    for (const call of calls) {
      const res = await call();
      expected -= 1;
      expect(limitHeaders(res), res.text).toEqual({ limit: '120', remaining: String(expected) });
    }
  });

  it('does not spend any quota on requests without a valid key', async () => {
    const key = await freshKey();
    for (let i = 0; i < 3; i++) expect((await get('/api/v1/sites', { key: otherLastChar(key) })).status).toBe(401);
    expect(limitHeaders(await get('/api/v1/sites', { key }))).toEqual({ limit: '120', remaining: '119' });
  });
});

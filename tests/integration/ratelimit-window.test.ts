import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { type ApiResult, get } from '../support/api';
import { newClientAddress, stamped } from '../support/client-address';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey } from '../support/keys';
import { expectProblem } from './api-helpers';
import { limitHeaders, manualClock, range } from './ratelimit-helpers';

// Issue 3 point 2: the 121st request of a key inside one window → 429 problem+json, Remaining 0 and
// Retry-After = whole seconds to the window's end (≥ 1); the next window serves again. Injected clock.
const t = useTestDatabase();
const MINUTE = Date.UTC(2026, 6, 2, 9, 30, 0);
const clock = manualClock(MINUTE);

beforeEach(() => {
  clock.set(MINUTE);
  setRateLimitStore(createMemoryStore(clock.now));
});
afterEach(() => setRateLimitStore(undefined));

async function freshKey() {
  const user = await createPublisher(t.db);
  await createSite(t.db, user.id);
  return (await issueKey(user.id)).raw;
}

/** Spends `n` requests of a key at once (the count is exact under concurrency: see ratelimit-concurrency). */
const burst = (key: string, n: number) => Promise.all(range(n).map(() => get('/api/v1/sites', { key })));

function expect429(res: ApiResult, retryAfter: string) {
  const body = expectProblem(res, 429, '/api/v1/sites');
  expect(body.title).toBe('Too Many Requests');
  expect(body.detail).toContain(`retry in ${retryAfter} s`);
  expect(limitHeaders(res)).toEqual({ limit: '120', remaining: '0' });
  expect(res.headers.get('retry-after')).toBe(retryAfter);
}

describe('the 121st request of a key in one window', () => {
  it('at :00.000 the 121st is refused with Retry-After 60; at :59.500 with 1; at the next :00.000 it is served', async () => {
    const key = await freshKey();
    const served = await burst(key, 120);
    expect(served.map((r) => r.status)).toEqual(range(120).map(() => 200));
    expectServedOnce(served);
    expect429(await get('/api/v1/sites', { key }), '60');

    clock.set(MINUTE + 999);
    expect429(await get('/api/v1/sites', { key }), '60');
    clock.set(MINUTE + 1_000);
    expect429(await get('/api/v1/sites', { key }), '59');
    clock.set(MINUTE + 59_500);
    expect429(await get('/api/v1/sites', { key }), '1');
    clock.set(MINUTE + 59_999);
    expect429(await get('/api/v1/sites', { key }), '1');

    clock.set(MINUTE + 60_000);
    const next = await get('/api/v1/sites', { key });
    expect(next.status, next.text).toBe(200);
    expect(limitHeaders(next)).toEqual({ limit: '120', remaining: '119' });
    expect(next.headers.get('retry-after')).toBeNull();
  });

  it('refused requests do not push the window: the next one serves a full 120 again', async () => {
    const key = await freshKey();
    clock.set(MINUTE + 30_000);
    await burst(key, 150);
    clock.set(MINUTE + 60_000);
    const next = await burst(key, 121);
    expect(next.filter((r) => r.status === 200)).toHaveLength(120);
    expect(next.filter((r) => r.status === 429)).toHaveLength(1);
  });

  it('a key first used late in a window gets the rest of that window only (windows are clock-aligned)', async () => {
    const key = await freshKey();
    clock.set(MINUTE + 59_000);
    await burst(key, 120);
    expect429(await get('/api/v1/sites', { key }), '1');
    clock.set(MINUTE + 60_000);
    expect((await get('/api/v1/sites', { key })).status).toBe(200);
  });

  it('the 31st request without a valid key from one address: 429 with Retry-After; served (401) again next window', async () => {
    const headers = stamped(newClientAddress());
    clock.set(MINUTE + 45_200);
    const answers = await Promise.all(range(30).map(() => get('/api/v1/sites', { headers })));
    expect(answers.every((r) => r.status === 401)).toBe(true);
    expect(answers.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(range(30));
    const refused = await get('/api/v1/sites', { headers });
    const body = expectProblem(refused, 429, '/api/v1/sites');
    expect(body.detail).toMatch(/without a valid API key/);
    expect(limitHeaders(refused)).toEqual({ limit: '30', remaining: '0' });
    expect(refused.headers.get('retry-after')).toBe('15');
    clock.set(MINUTE + 60_000);
    const next = await get('/api/v1/sites', { headers });
    expect(next.status).toBe(401);
    expect(limitHeaders(next)).toEqual({ limit: '30', remaining: '29' });
  });
});

/** The 120 served responses carry Limit 120 and Remaining 119…0, each value once. */
function expectServedOnce(served: ApiResult[]) {
  expect(served.every((r) => r.headers.get('x-ratelimit-limit') === '120')).toBe(true);
  const remaining = served.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b);
  expect(remaining).toEqual(range(120));
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { callApi, get } from '../support/api';
import { newClientAddress, stamped } from '../support/client-address';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey, otherLastChar } from '../support/keys';
import { expectProblem } from './api-helpers';
import { limitHeaders, manualClock, range } from './ratelimit-helpers';

// Issue 3 points 4 and 5: a bucket per key, shared by the legacy endpoint's ?apiKey=; callers without a valid
// key limited to 30 a minute per client address, never touching a real key's quota.
const t = useTestDatabase();
const MINUTE = Date.UTC(2026, 6, 4, 11, 0, 0);
const clock = manualClock(MINUTE + 3_000);

beforeEach(() => {
  clock.set(MINUTE + 3_000);
  setRateLimitStore(createMemoryStore(clock.now));
});
afterEach(() => setRateLimitStore(undefined));

async function freshUser() {
  const user = await createPublisher(t.db);
  await createSite(t.db, user.id);
  return user;
}
const remainingOf = (res: { headers: Headers }) => Number(res.headers.get('x-ratelimit-remaining'));
const at = stamped;

describe('one bucket per key', () => {
  it('keys of one account, and of different accounts, count apart', async () => {
    const user = await freshUser();
    const a = (await issueKey(user.id)).raw;
    const b = (await issueKey(user.id)).raw;
    const other = (await issueKey((await freshUser()).id)).raw;
    await Promise.all(range(120).map(() => get('/api/v1/sites', { key: a })));
    expectProblem(await get('/api/v1/sites', { key: a }), 429, '/api/v1/sites');
    expect(limitHeaders(await get('/api/v1/sites', { key: b }))).toEqual({ limit: '120', remaining: '119' });
    expect(limitHeaders(await get('/api/v1/sites', { key: other }))).toEqual({ limit: '120', remaining: '119' });
    // And an exhausted key's account can still mint and use a new key (its bucket is the new key's own).
    const created = await callApi('POST', '/api/v1/api-keys', { key: b, body: { label: 'fresh' } });
    expect(created.status, created.text).toBe(200);
    expect(limitHeaders(await get('/api/v1/sites', { key: created.json.apiKey }))).toEqual({
      limit: '120',
      remaining: '119',
    });
  });

  it('a key minted for a user by an operator (for-user) has its own bucket, not the operator key’s', async () => {
    const admin = (await issueKey(DEMO_IDS.users.admin, {}, 'admin')).raw;
    const user = await freshUser();
    const created = await callApi('POST', `/api/v1/api-keys/for-user/${user.id}`, {
      key: admin,
      body: { label: 'rl' },
    });
    expect(created.status, created.text).toBe(200);
    expect(remainingOf(created)).toBe(119);
    expect(remainingOf(await get('/api/v1/sites', { key: created.json.apiKey }))).toBe(119);
    expect(remainingOf(await get('/api/v1/sites', { key: admin }))).toBe(118);
  });

  it('the legacy feed (?apiKey=) spends the same bucket as header-authenticated calls of that key', async () => {
    const key = (await issueKey((await freshUser()).id)).raw;
    const calls = [
      () => get('/api/v1/sites', { key }),
      () => get(`/api/v1/revenues/countries?apiKey=${key}&pageSize=1`),
      () => get('/api/v1/revenues/countries?pageSize=1', { key }),
      () => get(`/api/v1/revenues/countries?APIKEY=${key}&pageSize=1`),
      () => get('/api/v1/revenues/countries?pageSize=1', { headers: { Authorization: `Bearer ${key}` } }),
      () => get('/api/v1/reports/countries?pageSize=1', { key }),
    ];
    let expected = 120;
    for (const call of calls) {
      const res = await call();
      expect(res.status, res.text).toBe(200);
      expect(remainingOf(res)).toBe(--expected);
    }
    // Spend the rest through the legacy endpoint: the header-authenticated endpoints are refused, and vice versa.
    await Promise.all(range(expected).map(() => get(`/api/v1/revenues/countries?apiKey=${key}&pageSize=1`)));
    expectProblem(await get('/api/v1/reports/countries', { key }), 429, '/api/v1/reports/countries');
    const legacy = await get(`/api/v1/revenues/countries?apiKey=${key}`);
    expectProblem(legacy, 429, '/api/v1/revenues/countries');
    expect(limitHeaders(legacy)).toEqual({ limit: '120', remaining: '0' });
  });
});

describe('callers without a valid key: 30 a minute per client address', () => {
  it('the 31st from one address is 429; every kind of keyless request counts', async () => {
    const address = newClientAddress();
    const key = (await issueKey((await freshUser()).id)).raw;
    const keyless = [
      () => get('/api/v1/sites', { headers: at(address) }),
      () => get('/api/v1/sites', { key: `${key.slice(0, -2)}zz`, headers: at(address) }),
      () => get(`/api/v1/revenues/countries?apiKey=rpk_nonsense`, { headers: at(address) }),
      () => get('/api/v1/nothing-here', { headers: at(address) }),
      () => callApi('PUT', '/api/v1/sites', { headers: at(address) }),
      () => callApi('OPTIONS', '/api/v1/sites', { headers: at(address) }),
    ];
    const seen: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await keyless[i % keyless.length]();
      expect(res.status, res.text).not.toBe(429);
      expect(res.headers.get('x-ratelimit-limit')).toBe('30');
      seen.push(remainingOf(res));
    }
    expect(seen).toEqual(range(30).reverse());
    for (const call of keyless) {
      const res = await call();
      expect(res.status, res.text).toBe(429);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(limitHeaders(res)).toEqual({ limit: '30', remaining: '0' });
      expect(res.headers.get('retry-after')).toBe('57');
    }
  });

  it("never spends a real key's quota, and a valid key from the exhausted address keeps working", async () => {
    const address = newClientAddress();
    const user = await freshUser();
    const { raw: key } = await issueKey(user.id);
    const { raw: revoked, record } = await issueKey(user.id);
    expect((await callApi('DELETE', `/api/v1/api-keys/${record.id}`, { key, headers: at(address) })).status).toBe(200);
    expect(remainingOf(await get('/api/v1/sites', { key, headers: at(address) }))).toBe(118);

    // Guesses near the real key, the revoked key, and nothing at all: all from the address's bucket.
    const guesses = [
      () => get('/api/v1/sites', { key: otherLastChar(key), headers: at(address) }),
      () => get('/api/v1/sites', { key: revoked, headers: at(address) }),
      () => get('/api/v1/sites', { headers: at(address) }),
    ];
    const answers = [];
    for (let i = 0; i < 40; i++) answers.push((await guesses[i % 3]()).status);
    expect(answers.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(answers.slice(30).every((s) => s === 429)).toBe(true);

    const res = await get('/api/v1/sites', { key, headers: at(address) });
    expect(res.status, res.text).toBe(200);
    expect(limitHeaders(res)).toEqual({ limit: '120', remaining: '117' });
    // The revoked key is still refused (429 now, for its address), and the real key is still untouched.
    expect((await get('/api/v1/sites', { key: revoked, headers: at(address) })).status).toBe(429);
    expect(remainingOf(await get('/api/v1/sites', { key, headers: at(address) }))).toBe(116);
  });

  it('different addresses have separate buckets', async () => {
    const [a, b] = [newClientAddress(), newClientAddress()];
    await Promise.all(range(31).map(() => get('/api/v1/sites', { headers: at(a) })));
    expect((await get('/api/v1/sites', { headers: at(a) })).status).toBe(429);
    const other = await get('/api/v1/sites', { headers: at(b) });
    expect(other.status).toBe(401);
    expect(limitHeaders(other)).toEqual({ limit: '30', remaining: '29' });
  });

  it('the address bucket serves again in the next window', async () => {
    const address = newClientAddress();
    await Promise.all(range(31).map(() => get('/api/v1/sites', { headers: at(address) })));
    expect((await get('/api/v1/sites', { headers: at(address) })).status).toBe(429);
    clock.set(MINUTE + 60_000);
    expect(limitHeaders(await get('/api/v1/sites', { headers: at(address) }))).toEqual({
      limit: '30',
      remaining: '29',
    });
  });
});

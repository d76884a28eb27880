import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { generateApiKey } from '@/lib/keys/key-format';
import { addressLimit, keyLimit, type RateLimitStore, setRateLimitStore, WINDOW_MS } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { createUpstashStore } from '@/lib/ratelimit/upstash';
import { type ApiResult, callApi, get } from '../support/api';
import { newClientAddress, stamped } from '../support/client-address';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey, otherLastChar } from '../support/keys';
import { expectProblem } from './api-helpers';
import { closedPortUrl, expectLimitHeaders, limitHeaders, manualClock, windowEndSeconds } from './ratelimit-helpers';
import { loggedLines } from '../support/logs';

// Issue 3 point 1: X-RateLimit-Limit and X-RateLimit-Remaining on every API response, whichever status, and
// (issue 20) X-RateLimit-Reset; Limit is the ceiling of the bucket spent (120 a key, 30 an address), with the in-process store and with an Upstash store that cannot be reached.
const t = useTestDatabase();
const MINUTE = Date.UTC(2026, 6, 1, 8, 0, 0);
const clock = manualClock(MINUTE + 2_000);

afterEach(() => setRateLimitStore(undefined));

async function keys() {
  const user = await createPublisher(t.db);
  const site = await createSite(t.db, user.id);
  const account = await issueKey(user.id);
  const scoped = await issueKey(user.id, { siteIds: [site.id] });
  return { key: account.raw, keyId: account.record.id, scoped: scoped.raw, siteId: site.id };
}

type Case = { label: string; status: number; call: () => Promise<ApiResult>; spends: 'key' | 'address' | 'scoped' };

function everyKind(k: Awaited<ReturnType<typeof keys>>): Case[] {
  const key = k.key;
  const badChecksum = otherLastChar(key);
  return [
    { label: 'GET sites', status: 200, spends: 'key', call: () => get('/api/v1/sites', { key }) },
    {
      label: 'GET by-country as CSV',
      status: 200,
      spends: 'key',
      call: () => get('/api/v1/reports/by-country?pageSize=2', { key, headers: { Accept: 'text/csv' } }),
    },
    {
      label: 'POST api-keys',
      status: 200,
      spends: 'key',
      call: () => callApi('POST', '/api/v1/api-keys', { key, body: { label: 'rl' } }),
    },
    {
      label: 'legacy feed, header key',
      status: 200,
      spends: 'key',
      call: () => get('/api/v1/revenues/countries?pageSize=1', { key }),
    },
    {
      label: 'legacy feed, ?apiKey=',
      status: 200,
      spends: 'key',
      call: () => get(`/api/v1/revenues/countries?apiKey=${key}&pageSize=1`),
    },
    {
      label: 'bad pageSize',
      status: 400,
      spends: 'key',
      call: () => get('/api/v1/reports/by-country?pageSize=0', { key }),
    },
    { label: 'unknown parameter', status: 400, spends: 'key', call: () => get('/api/v1/sites?nope=1', { key }) },
    {
      label: 'broken JSON body',
      status: 400,
      spends: 'key',
      call: () => callApi('POST', '/api/v1/api-keys', { key, body: '{' }),
    },
    {
      label: 'legacy feed, bad param',
      status: 400,
      spends: 'key',
      call: () => get(`/api/v1/revenues/countries?apiKey=${key}&page=0`),
    },
    {
      label: 'site-scoped key on countries',
      status: 403,
      spends: 'scoped',
      call: () => get('/api/v1/reports/countries', { key: k.scoped }),
    },
    { label: 'unknown API path', status: 404, spends: 'key', call: () => get('/api/v1/nothing-here', { key }) },
    {
      label: 'DELETE unknown key id',
      status: 404,
      spends: 'key',
      call: () => callApi('DELETE', `/api/v1/api-keys/${randomUUID()}`, { key }),
    },
    { label: 'PUT on sites', status: 405, spends: 'key', call: () => callApi('PUT', '/api/v1/sites', { key }) },
    {
      label: 'DELETE on legacy feed',
      status: 405,
      spends: 'key',
      call: () => callApi('DELETE', '/api/v1/revenues/countries', { key }),
    },
    { label: 'OPTIONS sites', status: 204, spends: 'key', call: () => callApi('OPTIONS', '/api/v1/sites', { key }) },
    {
      label: 'OPTIONS unknown path',
      status: 404,
      spends: 'key',
      call: () => callApi('OPTIONS', '/api/v1/nothing-here', { key }),
    },
    {
      label: 'body over 16 KiB',
      status: 413,
      spends: 'key',
      call: () => callApi('POST', '/api/v1/api-keys', { key, body: JSON.stringify({ label: 'x'.repeat(20_000) }) }),
    },
    {
      label: 'text/plain body',
      status: 415,
      spends: 'key',
      call: () =>
        callApi('POST', '/api/v1/api-keys', { key, body: 'label=x', headers: { 'Content-Type': 'text/plain' } }),
    },
    { label: 'no key', status: 401, spends: 'address', call: () => get('/api/v1/sites') },
    { label: 'bad checksum', status: 401, spends: 'address', call: () => get('/api/v1/sites', { key: badChecksum }) },
    {
      label: 'well-formed unknown key',
      status: 401,
      spends: 'address',
      call: () => get('/api/v1/sites', { key: generateApiKey().raw }),
    },
    {
      label: 'malformed Authorization',
      status: 401,
      spends: 'address',
      call: () => get('/api/v1/sites', { headers: { Authorization: 'Basic Zm9vOmJhcg==' } }),
    },
    { label: 'legacy feed without key', status: 401, spends: 'address', call: () => get('/api/v1/revenues/countries') },
    {
      label: 'legacy feed, bad ?apiKey=',
      status: 401,
      spends: 'address',
      call: () => get(`/api/v1/revenues/countries?apiKey=${badChecksum}`),
    },
    {
      label: 'two different keys',
      status: 400,
      spends: 'address',
      call: () => get('/api/v1/sites', { key, headers: { Authorization: `Bearer ${k.scoped}` } }),
    },
    { label: 'unknown path, no key', status: 404, spends: 'address', call: () => get('/api/v1/nothing-here') },
    { label: 'POST on sites, no key', status: 405, spends: 'address', call: () => callApi('POST', '/api/v1/sites') },
    {
      label: 'OPTIONS, no key',
      status: 204,
      spends: 'address',
      call: () => callApi('OPTIONS', '/api/v1/reports/totals'),
    },
  ];
}

/**
 * Runs every kind of response and checks the headers, and that Limit and Remaining are the right bucket's;
 * `now` is the store's clock when the test sets it.
 */
async function checkEveryKind(now?: () => number) {
  const k = await keys();
  let keyLeft = keyLimit();
  let scopedLeft = keyLimit();
  const seen = new Set<number>();
  for (const c of everyKind(k)) {
    const res = await c.call();
    expect(res.status, `${c.label}: ${res.text}`).toBe(c.status);
    const limit = c.spends === 'address' ? addressLimit() : keyLimit();
    const remaining = expectLimitHeaders(res, c.label, { limit, now: now?.() });
    seen.add(c.status);
    if (c.spends === 'key') expect(remaining, c.label).toBe(--keyLeft);
    // callApi gives each call an address of its own: a fresh address bucket of 30.
    if (c.spends === 'address') expect(remaining, c.label).toBe(29);
    if (c.spends === 'scoped') expect(remaining, c.label).toBe(--scopedLeft);
  }
  expect([...seen].sort()).toEqual([200, 204, 400, 401, 403, 404, 405, 413, 415]);
  return k;
}

/** 429 for a key (its bucket spent in the store directly) and for an address, both with the headers. */
async function checkRefusals(store: RateLimitStore, k: Awaited<ReturnType<typeof keys>>) {
  for (let i = 0; i < keyLimit(); i++) await store.hit(`key:${k.keyId}`, keyLimit(), WINDOW_MS);
  const refusedCalls: Array<[string, () => Promise<ApiResult>]> = [
    ['/api/v1/sites', () => get('/api/v1/sites', { key: k.key })],
    ['/api/v1/revenues/countries', () => get(`/api/v1/revenues/countries?apiKey=${k.key}`)],
    ['/api/v1/sites', () => callApi('PUT', '/api/v1/sites', { key: k.key })],
    ['/api/v1/sites', () => callApi('OPTIONS', '/api/v1/sites', { key: k.key })],
    ['/api/v1/nothing-here', () => get('/api/v1/nothing-here', { key: k.key })],
  ];
  for (const [path, call] of refusedCalls) {
    const res = await call();
    expectProblem(res, 429, path);
    expect(limitHeaders(res)).toEqual({ limit: '120', remaining: '0' });
    expect(res.headers.get('x-ratelimit-reset')).toBe(windowEndSeconds(clock.now()));
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }
  const address = stamped(newClientAddress());
  for (let i = 0; i < 30; i++) expect((await get('/api/v1/sites', { headers: address })).status).toBe(401);
  const res = await get('/api/v1/sites', { headers: address });
  expectProblem(res, 429, '/api/v1/sites');
  expect(limitHeaders(res)).toEqual({ limit: '30', remaining: '0' });
  expect(res.headers.get('x-ratelimit-reset')).toBe(windowEndSeconds(clock.now()));
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

describe('X-RateLimit-* headers on every API response', () => {
  it('in-process store: every status carries the Limit, Remaining and Reset of the bucket it spent', async () => {
    const store = createMemoryStore(clock.now);
    setRateLimitStore(store);
    const k = await checkEveryKind(clock.now);
    await checkRefusals(store, k);
  });

  it('default store (as configured: in-process here unless Upstash is set)', async () => {
    setRateLimitStore(undefined);
    await checkEveryKind();
  });

  describe('Upstash unreachable (nothing listening): the same, never Limit 0', () => {
    let warn: MockInstance<typeof console.warn>;
    beforeEach(() => {
      warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    });
    afterEach(() => warn.mockRestore());

    it('every status carries the headers, counted locally; one warning', async () => {
      // The local count runs on the manual clock: on the real one a minute could end between the
      // bucket being spent and the request that must be refused.
      const store = createUpstashStore({ url: await closedPortUrl(), token: 'unreachable', now: clock.now });
      setRateLimitStore(store);
      const k = await checkEveryKind(clock.now);
      await checkRefusals(store, k);
      const ours = loggedLines(warn).filter((line) => line.msg.startsWith('[ratelimit]'));
      expect(ours).toHaveLength(1);
    });
  });
});

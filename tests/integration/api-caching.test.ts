import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as healthRoute from '@/app/api/v1/health/route';
import * as documentRoute from '@/app/api/v1/openapi.json/route';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { callApi, get } from '../support/api';
import { newClientAddress, stamped } from '../support/client-address';
import { useTestDatabase } from '../support/db';
import { demoKey } from '../support/keys';
import { expectLimitHeaders, manualClock } from './ratelimit-helpers';

// Issue 20: the OpenAPI document and the health check are cacheable with a strong ETag and 304 on
// If-None-Match; every negotiated answer says Vary: Accept. The account's data: api-validators.test.ts.
useTestDatabase();
const DOCUMENT = '/api/v1/openapi.json';
const HEALTH = '/api/v1/health';
const clock = manualClock(Date.UTC(2026, 6, 1, 8, 0, 12));
let key: string;

beforeAll(async () => {
  key = (await demoKey()).raw;
});
beforeEach(() => setRateLimitStore(createMemoryStore(clock.now)));
afterEach(() => setRateLimitStore(undefined));

/**
 * A conditional request straight to the route's handler, from a client address of its own; openapi.test.ts
 * checks that the document lists these 304s.
 */
async function conditional(path: string, headers: Record<string, string>, method: 'GET' | 'HEAD' = 'GET') {
  const route = path === DOCUMENT ? documentRoute : healthRoute;
  const request = new Request(`http://localhost${path}`, {
    method,
    headers: { ...stamped(newClientAddress()), ...headers },
  });
  const response = await route[method](request, { params: Promise.resolve({}) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const varyOf = (res: { headers: Headers }) =>
  (res.headers.get('vary') ?? '').split(',').map((name) => name.trim().toLowerCase());

describe.each([
  { path: DOCUMENT, cacheControl: 'public, max-age=300' },
  { path: HEALTH, cacheControl: 'no-cache' },
])('$path: ETag and If-None-Match', ({ path, cacheControl }) => {
  it(`answers 200 with a strong ETag, Cache-Control: ${cacheControl} and Vary: Accept`, async () => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(res.headers.get('cache-control')).toBe(cacheControl);
    expect(varyOf(res)).toContain('accept');
    // The same representation, the same tag.
    expect((await get(path)).headers.get('etag')).toBe(res.headers.get('etag'));
  });

  it('answers 304 without a body to If-None-Match naming the tag (weak, listed, or *), GET and HEAD alike', async () => {
    const etag = (await get(path)).headers.get('etag')!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await conditional(path, { 'If-None-Match': ifNoneMatch }, method);
        expect(res.status, `${method} If-None-Match: ${ifNoneMatch}`).toBe(304);
        expect(res.text).toBe('');
        expect(res.headers.get('etag')).toBe(etag);
        expect(res.headers.get('cache-control')).toBe(cacheControl);
        expect(varyOf(res)).toContain('accept');
        expect(res.headers.get('content-type')).toBeNull();
        // A revalidation is a request like any other: it is counted and says so.
        expectLimitHeaders(res, `${method} 304`, { limit: 30, now: clock.now() });
      }
    }
  });

  it('answers 200 with the body when If-None-Match names another tag', async () => {
    const res = await conditional(path, { 'If-None-Match': '"not-this-one"' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toBeTypeOf('object');
  });

  it('gives each media type its own tag: text/plain is another representation', async () => {
    const json = await get(path);
    const plain = await get(path, { headers: { Accept: 'text/plain' } });
    expect(plain.text).toBe(json.text);
    expect(plain.headers.get('etag')).not.toBe(json.headers.get('etag'));
    const stale = await conditional(path, { Accept: 'text/plain', 'If-None-Match': json.headers.get('etag')! });
    expect(stale.status).toBe(200);
  });

  it('keeps errors uncached: a 406 and a 400 are no-store, without an ETag', async () => {
    for (const res of [await get(path, { headers: { Accept: 'text/csv' } }), await get(`${path}?x=1`)]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('etag')).toBeNull();
    }
  });
});

describe('Vary: Accept wherever Accept picks the representation', () => {
  it('on JSON, text/plain, CSV and NDJSON answers, and on the 406 that Accept caused', async () => {
    const answers = [
      await get('/api/v1/sites', { key }),
      await get('/api/v1/sites', { key, headers: { Accept: 'text/plain' } }),
      await get('/api/v1/reports/by-country?pageSize=2', { key, headers: { Accept: 'text/csv' } }),
      await get('/api/v1/reports/countries/export?Search=no-such-game', {
        key,
        headers: { Accept: 'application/x-ndjson' },
      }),
      await get('/api/v1/reports/totals', { key, headers: { Accept: 'image/png' } }),
      await callApi('POST', '/api/v1/api-keys', { key, body: { label: 'vary' } }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 406, 200]);
    for (const res of answers) expect(varyOf(res).filter((name) => name === 'accept')).toHaveLength(1);
    // The account's data is revalidated on each use (api-validators.test.ts); the 406 and the write are not kept.
    expect(answers.map((r) => r.headers.get('cache-control'))).toEqual([
      ...Array(4).fill('private, no-cache'),
      'no-store',
      'no-store',
    ]);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createUpstashStore } from '@/lib/ratelimit/upstash';
import { type ApiResult, get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey } from '../support/keys';
import {
  redisAvailable,
  startUpstashEmulator,
  type UpstashEmulator,
  deleteRedisKeys,
} from '../support/upstash-emulator';
import { closedPortUrl, freshWindow, limitHeaders, REDIS_URL } from './ratelimit-helpers';
import { loggedLines } from '../support/logs';

// Issue 3 point 6 through the API: Upstash unreachable, hanging or failing → the request is served within
// ~1 s, headers still say 120, a warning at most once a minute, never a 500; counting resumes in Redis after.
const t = useTestDatabase();
const available = await redisAvailable(REDIS_URL);

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  warn.mockRestore();
  setRateLimitStore(undefined);
});
const ourWarnings = () =>
  loggedLines(warn)
    .map((line) => line.msg)
    .filter((m) => m.startsWith('[ratelimit]'));

async function freshKey() {
  const user = await createPublisher(t.db);
  await createSite(t.db, user.id);
  return (await issueKey(user.id)).raw;
}

async function timed(call: () => Promise<ApiResult>): Promise<[ApiResult, number]> {
  const started = performance.now();
  const res = await call();
  return [res, performance.now() - started];
}

describe('Upstash unreachable (nothing listening on its port)', () => {
  it('serves at once with Limit 120, counts locally, warns once', async () => {
    const key = await freshKey();
    await get('/api/v1/sites'); // warm up (default store) so the timing below is the limiter's
    setRateLimitStore(createUpstashStore({ url: await closedPortUrl(), token: 'unreachable' }));
    const [first, ms] = await timed(() => get('/api/v1/sites', { key }));
    expect(first.status, first.text).toBe(200);
    expect(ms).toBeLessThan(500);
    expect(limitHeaders(first)).toEqual({ limit: '120', remaining: '119' });
    const keyless = await get('/api/v1/sites');
    expect(keyless.status).toBe(401);
    expect(limitHeaders(keyless)).toEqual({ limit: '30', remaining: '29' });
    for (let i = 0; i < 5; i++) expect((await get('/api/v1/sites', { key })).status).toBe(200);
    expect(limitHeaders(await get('/api/v1/sites', { key }))).toEqual({ limit: '120', remaining: '113' });
    expect(ourWarnings()).toHaveLength(1);
    expect(ourWarnings()[0]).toMatch(/Upstash unavailable/);
    expect(ourWarnings()[0]).not.toContain(key);
  });
});

describe.skipIf(!available)(
  `Upstash hanging, failing, then back${available ? '' : ` (skipped: no Redis at ${REDIS_URL})`}`,
  () => {
    const NS = `rltest:failopen:${randomUUID()}:`;
    let emulator: UpstashEmulator;

    beforeAll(async () => {
      emulator = await startUpstashEmulator({ redisUrl: REDIS_URL, keyPrefix: NS });
    });
    afterEach(() => emulator.setMode('normal'));
    afterAll(async () => {
      await emulator?.close();
      await deleteRedisKeys(NS, REDIS_URL);
    });

    it('hang → served within ~1 s; error → served at once; one warning for both; then counting resumes in Redis', async () => {
      const store = createUpstashStore({ url: emulator.url, token: emulator.token });
      setRateLimitStore(store);
      const key = await freshKey();
      await freshWindow(3_000);

      // Normal: counted in Redis.
      expect(limitHeaders(await get('/api/v1/sites', { key }))).toEqual({ limit: '120', remaining: '119' });
      expect(limitHeaders(await get('/api/v1/sites', { key }))).toEqual({ limit: '120', remaining: '118' });

      emulator.setMode('hang');
      const [hung, hungMs] = await timed(() => get('/api/v1/sites', { key }));
      console.log(`[figures] API request with Upstash hanging: ${hung.status} in ${Math.round(hungMs)} ms`);
      expect(hung.status, hung.text).toBe(200);
      expect(hungMs).toBeGreaterThanOrEqual(900);
      expect(hungMs).toBeLessThan(1_500);
      expect(limitHeaders(hung)).toEqual({ limit: '120', remaining: '119' }); // the local count's first

      emulator.setMode('error');
      const [failed, failedMs] = await timed(() => get('/api/v1/sites', { key }));
      expect(failed.status, failed.text).toBe(200);
      expect(failedMs).toBeLessThan(500);
      expect(limitHeaders(failed)).toEqual({ limit: '120', remaining: '118' });
      const keyless = await get('/api/v1/sites');
      expect(keyless.status).toBe(401);
      expect(limitHeaders(keyless)).toEqual({ limit: '30', remaining: '29' });
      expect(ourWarnings()).toHaveLength(1); // hang and error within one minute: one warning

      emulator.setMode('normal');
      emulator.resetCounts();
      const back = await get('/api/v1/sites', { key });
      expect(back.status).toBe(200);
      expect(limitHeaders(back)).toEqual({ limit: '120', remaining: '117' }); // Redis' count again
      expect((emulator.commands.EVALSHA ?? 0) + (emulator.commands.EVAL ?? 0)).toBe(1);
      expect(ourWarnings()).toHaveLength(1);
    });

    it('a Redis-side error on every request is never a 500, for any kind of response', async () => {
      setRateLimitStore(createUpstashStore({ url: emulator.url, token: emulator.token }));
      const key = await freshKey();
      emulator.setMode('error');
      const answers = await Promise.all([
        get('/api/v1/sites', { key }),
        get(`/api/v1/revenues/countries?apiKey=${key}&pageSize=1`),
        get('/api/v1/reports/by-country?pageSize=0', { key }),
        get('/api/v1/nothing-here', { key }),
        get('/api/v1/sites'),
      ]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 400, 404, 401]);
      expect(answers.map((r) => r.headers.get('x-ratelimit-limit'))).toEqual(['120', '120', '120', '120', '30']);
      expect(ourWarnings()).toHaveLength(1);
    });
  },
);

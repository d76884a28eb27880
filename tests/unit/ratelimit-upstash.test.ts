import { randomUUID } from 'node:crypto';
import IORedis from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProblemError } from '@/lib/http/problem';
import { applyRateLimit, keyPolicy } from '@/lib/http/rate-limit';
import { type RateLimitResult, setRateLimitStore, WINDOW_MS } from '@/lib/ratelimit';
import { createUpstashStore, type UpstashStoreOptions } from '@/lib/ratelimit/upstash';
import {
  redisAvailable,
  startUpstashEmulator,
  type UpstashEmulator,
  deleteRedisKeys,
} from '../support/upstash-emulator';
import { closedPortUrl, freshWindow, manualClock, range, REDIS_URL } from '../integration/ratelimit-helpers';

// The production Upstash store (@upstash/ratelimit over @upstash/redis) against the Upstash REST emulator
// over this machine's Redis. Every key lives under NS inside Redis; afterAll deletes them.
const available = await redisAvailable(REDIS_URL);
const NS = `rltest:unit:${randomUUID()}:`;
const bucket = (name: string) => `${name}:${randomUUID()}`;
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
/** The default per-key limit, assumed by the counts below: these tests drive the store, not the configured limit. */
const KEY_LIMIT = 120;

describe.skipIf(!available)(
  `Upstash rate-limit store${available ? '' : ` (skipped: no Redis at ${REDIS_URL})`}`,
  () => {
    let emulator: UpstashEmulator;
    const warnings: string[] = [];
    const store = (extra: Partial<UpstashStoreOptions> = {}) =>
      createUpstashStore({ url: emulator.url, token: emulator.token, warn: (m) => void warnings.push(m), ...extra });

    beforeAll(async () => {
      emulator = await startUpstashEmulator({ redisUrl: REDIS_URL, keyPrefix: NS });
    });
    afterEach(() => {
      emulator.setMode('normal');
      warnings.length = 0;
      setRateLimitStore(undefined);
      vi.restoreAllMocks();
    });
    afterAll(async () => {
      await emulator?.close();
      await deleteRedisKeys(NS, REDIS_URL);
    });

    it('counts a window in Redis: remaining 119…0, the 121st refused, reset at the next clock-aligned minute', async () => {
      await freshWindow(2_000);
      const s = store();
      const b = bucket('key');
      const results: RateLimitResult[] = [];
      for (let i = 0; i < 121; i++) results.push(await s.hit(b, KEY_LIMIT, WINDOW_MS));
      const windowEnd = (Math.floor(Date.now() / WINDOW_MS) + 1) * WINDOW_MS;
      expect(results.slice(0, 120).map((r) => r.remaining)).toEqual(range(120).reverse());
      expect(results.slice(0, 120).every((r) => r.success && r.limit === 120 && r.reset === windowEnd)).toBe(true);
      expect(results[120]).toEqual({ success: false, limit: 120, remaining: 0, reset: windowEnd });
      expect(warnings).toEqual([]);
      // The count is in Redis: a second store (another server instance) sees it.
      expect(await store().hit(b, KEY_LIMIT, WINDOW_MS)).toMatchObject({ success: false, remaining: 0 });
      const direct = new IORedis(REDIS_URL);
      try {
        const keys = await direct.keys(`${NS}portal:ratelimit:${b}:*`);
        expect(keys).toEqual([`${NS}portal:ratelimit:${b}:${Math.floor(Date.now() / WINDOW_MS)}`]);
        const ttl = await direct.pttl(keys[0]);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(WINDOW_MS);
      } finally {
        direct.disconnect();
      }
    });

    it('keeps buckets and limits apart: a key (120) and an address (30) in one store', async () => {
      await freshWindow(2_000);
      const s = store();
      const [k1, k2, addr] = [bucket('key'), bucket('key'), bucket('addr')];
      for (let i = 0; i < 30; i++) await s.hit(addr, 30, WINDOW_MS);
      expect(await s.hit(addr, 30, WINDOW_MS)).toMatchObject({ success: false, remaining: 0, limit: 30 });
      for (let i = 0; i < 5; i++) await s.hit(k1, KEY_LIMIT, WINDOW_MS);
      expect(await s.hit(k1, KEY_LIMIT, WINDOW_MS)).toMatchObject({ success: true, remaining: 114 });
      expect(await s.hit(k2, KEY_LIMIT, WINDOW_MS)).toMatchObject({ success: true, remaining: 119 });
    });

    it('forgets one bucket on reset (a successful sign-in), and no other', async () => {
      await freshWindow(2_000);
      const s = store();
      const [cleared, kept] = [bucket('pair'), bucket('pair')];
      for (let i = 0; i < 10; i++) await Promise.all([s.hit(cleared, 10, WINDOW_MS), s.hit(kept, 10, WINDOW_MS)]);
      expect(await s.hit(cleared, 10, WINDOW_MS)).toMatchObject({ success: false });
      await s.reset(cleared, 10, WINDOW_MS);
      expect(await s.hit(cleared, 10, WINDOW_MS)).toMatchObject({ success: true, remaining: 9 });
      expect(await s.hit(kept, 10, WINDOW_MS)).toMatchObject({ success: false, remaining: 0 });
      expect(warnings).toEqual([]);
    });

    it('is exact under concurrency: 300 simultaneous hits → 120 pass with remaining {0..119} once each', async () => {
      await freshWindow(2_000);
      const s = store();
      const b = bucket('key');
      const started = performance.now();
      const results = await Promise.all(range(300).map(() => s.hit(b, KEY_LIMIT, WINDOW_MS)));
      const ms = Math.round(performance.now() - started);
      const passed = results.filter((r) => r.success);
      console.log(`[figures] upstash store, 1 instance: ${passed.length} of 300 passed in ${ms} ms`);
      expect(passed).toHaveLength(120);
      expect(sorted(passed.map((r) => r.remaining))).toEqual(range(120));
      expect(results.filter((r) => !r.success).every((r) => r.remaining === 0)).toBe(true);
      expect(warnings).toEqual([]);
    });

    it('two instances sharing one Redis: 300 concurrent hits spread across them → exactly 120 pass in total', async () => {
      await freshWindow(2_000);
      const [a, b] = [store(), store()];
      const key = bucket('key');
      const results = await Promise.all(
        range(300).map((i) => (i % 2 ? a : b).hit(key, KEY_LIMIT, WINDOW_MS).then((r) => ({ i, r }))),
      );
      const passed = results.filter(({ r }) => r.success);
      const byA = passed.filter(({ i }) => i % 2).length;
      console.log(
        `[figures] upstash store, 2 instances: ${passed.length} of 300 passed (${byA} + ${passed.length - byA})`,
      );
      expect(passed).toHaveLength(120);
      expect(sorted(passed.map(({ r }) => r.remaining))).toEqual(range(120));
    });

    it('two instances taking turns in bursts of 30: both serve, 120 pass in total, each remaining value once', async () => {
      await freshWindow(2_000);
      const [a, b] = [store(), store()];
      const key = bucket('key');
      const passedBy = { a: [] as number[], b: [] as number[] };
      for (let round = 0; round < 10; round++) {
        const results = await Promise.all(
          range(30).map((i) =>
            (i % 2 ? a : b).hit(key, KEY_LIMIT, WINDOW_MS).then((r) => ({ on: i % 2 ? 'a' : 'b', r }) as const),
          ),
        );
        for (const { on, r } of results) if (r.success) passedBy[on].push(r.remaining);
      }
      console.log(
        `[figures] upstash store, 2 instances in bursts: ${passedBy.a.length} + ${passedBy.b.length} passed of 300`,
      );
      expect(passedBy.a.length + passedBy.b.length).toBe(120);
      expect(passedBy.a.length).toBeGreaterThan(0);
      expect(passedBy.b.length).toBeGreaterThan(0);
      expect(sorted([...passedBy.a, ...passedBy.b])).toEqual(range(120));
    });

    it("states reset on the store's own clock when one is injected, so Retry-After stays right", async () => {
      await freshWindow(2_000);
      // A clock far from the real one, 0.5 s before its own minute ends: the Upstash window is the real one.
      const clock = manualClock(Date.UTC(2030, 0, 1, 0, 0, 59, 500));
      const s = store({ now: clock.now });
      const r = await s.hit(bucket('key'), KEY_LIMIT, WINDOW_MS);
      const realLeft = WINDOW_MS - (Date.now() % WINDOW_MS);
      expect(r.reset - clock.now()).toBeGreaterThan(realLeft - 1_000);
      expect(r.reset - clock.now()).toBeLessThanOrEqual(realLeft + 1_000);

      setRateLimitStore(s);
      const key = randomUUID();
      let refused: ProblemError | undefined;
      for (let i = 0; i < 121 && !refused; i++) {
        await applyRateLimit(keyPolicy(key), new Headers()).catch((err) => (refused = err));
      }
      const expected = Math.ceil((WINDOW_MS - (Date.now() % WINDOW_MS)) / 1000);
      expect(refused?.status).toBe(429);
      expect(Math.abs(Number(refused?.headers['Retry-After']) - expected)).toBeLessThanOrEqual(1);
      expect(warnings).toEqual([]);
    });

    it("'hang': answers within ~1 s (the default timeout), counting locally, limit 120, one warning", async () => {
      emulator.setMode('hang');
      const s = store();
      const started = performance.now();
      const r = await s.hit(bucket('key'), KEY_LIMIT, WINDOW_MS);
      const ms = performance.now() - started;
      console.log(`[figures] upstash store, 'hang': answered in ${Math.round(ms)} ms`);
      expect(ms).toBeGreaterThanOrEqual(900);
      expect(ms).toBeLessThan(1_500);
      expect(r).toMatchObject({ success: true, limit: 120, remaining: 119 });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/Upstash unavailable/);
    });

    /** Blocks this process's event loop, as a long synchronous stretch (e.g. embedded PGlite under a burst) does. */
    const stall = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until) {
        /* busy */
      }
    };

    it('a stall of our own process is not taken for Upstash being slow: blocked before the request went out', async () => {
      await freshWindow(2_000);
      const s = store({ timeoutMs: 200 });
      const b = bucket('key');
      await s.hit(b, KEY_LIMIT, WINDOW_MS); // warm: connection and script loaded
      const pending = s.hit(b, KEY_LIMIT, WINDOW_MS);
      stall(500); // longer than the timeout, before the request could even be sent
      expect(await pending).toMatchObject({ success: true, remaining: 118 });
      expect(warnings).toEqual([]);
    });

    it('…nor when the answer arrived while the process was blocked (timers run before I/O is read)', async () => {
      await freshWindow(2_000);
      const s = store({ timeoutMs: 200 });
      const b = bucket('key');
      await s.hit(b, KEY_LIMIT, WINDOW_MS);
      emulator.setMode('slow', 100); // Upstash answers after 100 ms...
      const pending = s.hit(b, KEY_LIMIT, WINDOW_MS);
      await new Promise((r) => setTimeout(r, 50)); // ...the request is out...
      stall(500); // ...and we are busy until well past the timeout
      emulator.setMode('normal');
      expect(await pending).toMatchObject({ success: true, remaining: 118 });
      expect(warnings).toEqual([]);
    });

    it("'slow' beyond the timeout: answers at the timeout; the hit Redis still ran is counted there too", async () => {
      await freshWindow(2_000);
      const s = store({ timeoutMs: 150 });
      const b = bucket('key');
      await s.hit(b, KEY_LIMIT, WINDOW_MS); // 119 in Redis
      emulator.setMode('slow', 600);
      const started = performance.now();
      const r = await s.hit(b, KEY_LIMIT, WINDOW_MS);
      expect(performance.now() - started).toBeLessThan(500);
      expect(r).toMatchObject({ success: true, limit: 120 });
      expect(warnings).toHaveLength(1);
      emulator.setMode('normal');
      await new Promise((res) => setTimeout(res, 600)); // let the delayed answer go
      expect(await s.hit(b, KEY_LIMIT, WINDOW_MS)).toMatchObject({ success: true, remaining: 117 });
    });

    it("'error' (Redis-side failure): answered at once from the local count, never thrown, limit 120", async () => {
      emulator.setMode('error');
      const s = store();
      const b = bucket('key');
      const started = performance.now();
      const results: RateLimitResult[] = [];
      for (let i = 0; i < 121; i++) results.push(await s.hit(b, KEY_LIMIT, WINDOW_MS));
      const ms = performance.now() - started;
      expect(ms / 121).toBeLessThan(100);
      // The local count still enforces the limit on this instance.
      expect(results.filter((r) => r.success)).toHaveLength(120);
      expect(results.every((r) => r.limit === 120)).toBe(true);
      expect(results[0].remaining).toBe(119);
      expect(results[120]).toMatchObject({ success: false, remaining: 0 });
      expect(warnings).toHaveLength(1);
    });

    it('unreachable (nothing listening): answered at once from the local count, one warning', async () => {
      const s = createUpstashStore({ url: await closedPortUrl(), token: 'nobody', warn: (m) => void warnings.push(m) });
      const started = performance.now();
      const first = await s.hit('key:unreachable', KEY_LIMIT, WINDOW_MS);
      expect(performance.now() - started).toBeLessThan(500);
      expect(first).toMatchObject({ success: true, limit: 120, remaining: 119 });
      for (let i = 0; i < 10; i++) await s.hit('key:unreachable', KEY_LIMIT, WINDOW_MS);
      expect(warnings).toHaveLength(1);
    });

    it('a wrong token (401 from Upstash) fails open the same way', async () => {
      const s = createUpstashStore({ url: emulator.url, token: 'wrong', warn: (m) => void warnings.push(m) });
      expect(await s.hit(bucket('key'), KEY_LIMIT, WINDOW_MS)).toMatchObject({
        success: true,
        limit: 120,
        remaining: 119,
      });
      expect(warnings).toHaveLength(1);
    });

    it('warns at most once a minute (on its clock), whatever fails', async () => {
      const clock = manualClock(Date.UTC(2030, 0, 1, 0, 0, 10));
      const s = store({ now: clock.now, timeoutMs: 100 });
      emulator.setMode('error');
      await s.hit(bucket('k'), KEY_LIMIT, WINDOW_MS);
      clock.advance(30_000);
      await s.hit(bucket('k'), KEY_LIMIT, WINDOW_MS);
      emulator.setMode('hang');
      clock.advance(29_999);
      await s.hit(bucket('k'), KEY_LIMIT, WINDOW_MS);
      expect(warnings).toHaveLength(1);
      clock.advance(1);
      await s.hit(bucket('k'), KEY_LIMIT, WINDOW_MS);
      expect(warnings).toHaveLength(2);
      expect(warnings[1]).toMatch(/no answer within 100 ms/);
      emulator.setMode('error');
      clock.advance(59_999);
      await s.hit(bucket('k'), KEY_LIMIT, WINDOW_MS);
      expect(warnings).toHaveLength(2);
    });

    it('logs with console.warn by default', async () => {
      const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
      emulator.setMode('error');
      const s = createUpstashStore({ url: emulator.url, token: emulator.token });
      for (let i = 0; i < 5; i++) await s.hit(bucket('k'), KEY_LIMIT, WINDOW_MS);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(String(spy.mock.calls[0][0])).toMatch(/\[ratelimit\] Upstash unavailable/);
    });

    it('resumes counting in Redis once Upstash answers again', async () => {
      await freshWindow(2_000);
      const s = store();
      const b = bucket('key');
      for (let i = 0; i < 3; i++) await s.hit(b, KEY_LIMIT, WINDOW_MS); // 117 left in Redis
      emulator.setMode('error');
      expect(await s.hit(b, KEY_LIMIT, WINDOW_MS)).toMatchObject({ remaining: 119 }); // local count
      expect(await s.hit(b, KEY_LIMIT, WINDOW_MS)).toMatchObject({ remaining: 118 });
      emulator.setMode('normal');
      emulator.resetCounts();
      expect(await s.hit(b, KEY_LIMIT, WINDOW_MS)).toMatchObject({ success: true, remaining: 116 }); // Redis again
      expect((emulator.commands.EVALSHA ?? 0) + (emulator.commands.EVAL ?? 0)).toBeGreaterThanOrEqual(1);
      // And a second instance agrees: the count is the shared one.
      expect(await store().hit(b, KEY_LIMIT, WINDOW_MS)).toMatchObject({ remaining: 115 });
    });
  },
);

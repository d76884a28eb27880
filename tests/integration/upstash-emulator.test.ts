import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import path from 'node:path';
import { Ratelimit } from '@upstash/ratelimit';
import { Redis, type RedisConfigNodejs } from '@upstash/redis';
import IORedis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable, startUpstashEmulator, type UpstashEmulator } from '../support/upstash-emulator';
import { sha1 } from '../support/upstash-protocol';

// The real @upstash/redis client and @upstash/ratelimit against the emulator over a real Redis.
// Every emulator here prefixes keys with NS, so parallel runs never collide; afterAll deletes them.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const available = await redisAvailable(REDIS_URL);
const NS = `emutest:${randomUUID()}:`;
const WINDOW = 60_000;

const started: UpstashEmulator[] = [];
async function emulator(token?: string) {
  const e = await startUpstashEmulator({ redisUrl: REDIS_URL, keyPrefix: NS, token });
  started.push(e);
  return e;
}
const client = (e: UpstashEmulator, extra: Partial<RedisConfigNodejs> = {}) =>
  new Redis({ url: e.url, token: e.token, enableTelemetry: false, ...extra });
const limiter = (redis: Redis, timeout = 5_000) =>
  new Ratelimit({ redis, limiter: Ratelimit.fixedWindow(120, '60 s'), timeout, analytics: false, prefix: 'rl' });

/** Fixed windows are clock-aligned: start a counting test well inside one, or it may straddle two. */
async function freshWindow(margin = 5_000) {
  const left = WINDOW - (Date.now() % WINDOW);
  if (left < margin) await new Promise((r) => setTimeout(r, left + 50));
}

describe.skipIf(!available)(`Upstash REST emulator${available ? '' : ` (skipped: no Redis at ${REDIS_URL})`}`, () => {
  let direct: IORedis;
  let shared: UpstashEmulator;

  beforeAll(async () => {
    direct = new IORedis(REDIS_URL);
    shared = await emulator();
  });

  afterAll(async () => {
    await Promise.all(started.map((e) => e.close()));
    const keys = await direct.keys(`${NS}*`);
    if (keys.length) await direct.del(...keys);
    await direct.quit();
  });

  // @upstash/redis 1.39 auto-pipelines by default: single commands then travel as POST /pipeline.
  const matrix: Array<[RedisConfigNodejs['responseEncoding'], boolean]> = [
    ['base64', true],
    ['base64', false],
    [false, false],
  ];
  for (const [responseEncoding, enableAutoPipelining] of matrix) {
    it(`round-trips commands, pipelines and transactions (responseEncoding: ${responseEncoding}, enableAutoPipelining: ${enableAutoPipelining})`, async () => {
      const redis = client(shared, { responseEncoding, enableAutoPipelining });
      const k = `rt:${responseEncoding}:${enableAutoPipelining}`;
      expect(await redis.set(`${k}:s`, 'héllo ✓ wörld')).toBe('OK');
      expect(await redis.get(`${k}:s`)).toBe('héllo ✓ wörld');
      expect(await direct.get(`${NS}${k}:s`)).toBe('héllo ✓ wörld'); // stored under the prefix
      await redis.set(`${k}:o`, { a: 1, b: ['x'] });
      expect(await redis.get(`${k}:o`)).toEqual({ a: 1, b: ['x'] });
      expect(
        await client(shared, { responseEncoding, enableAutoPipelining, automaticDeserialization: false }).get(`${k}:o`),
      ).toBe('{"a":1,"b":["x"]}');
      expect(await redis.incr(`${k}:n`)).toBe(1);
      expect(await redis.incrby(`${k}:n`, 41)).toBe(42);
      expect(await redis.mget(`${k}:s`, `${k}:missing`)).toEqual(['héllo ✓ wörld', null]);
      await redis.hset(`${k}:h`, { f: 'v', g: 2 });
      expect(await redis.hgetall(`${k}:h`)).toEqual({ f: 'v', g: 2 });
      expect(await redis.pexpire(`${k}:n`, 60_000)).toBe(1);

      const p = redis.pipeline();
      p.set(`${k}:p`, 'v1').get(`${k}:p`).incr(`${k}:pn`).lrange(`${k}:missing`, 0, -1);
      expect(await p.exec()).toEqual(['OK', 'v1', 1, []]);

      const m = redis.multi();
      m.incr(`${k}:pn`).incr(`${k}:pn`).get(`${k}:pn`);
      expect(await m.exec()).toEqual([2, 3, 3]);

      // A failing entry: other entries still run; exec() throws unless keepErrors.
      const bad = redis.pipeline();
      bad.incr(`${k}:s`).incr(`${k}:pn`);
      const kept = await bad.exec({ keepErrors: true });
      expect(kept[0].error).toMatch(/^ERR value is not an integer/);
      expect(kept[1]).toEqual({ error: undefined, result: 4 });
      await expect(redis.pipeline().incr(`${k}:s`).exec()).rejects.toThrow(
        /Command 1 \[ incr \] failed: ERR value is not an integer/,
      );
    });
  }

  it('serves the default client, which batches concurrent commands into /pipeline', async () => {
    const e = await emulator();
    const redis = client(e);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => redis.incr(`auto:${i % 5}`)));
    expect(results.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => Math.floor(i / 5) + 1));
    expect(e.requests).toBeLessThan(5);
  });

  it('answers Redis errors as HTTP 400 {error} with the Redis message', async () => {
    const single = client(shared, { enableAutoPipelining: false });
    await single.set('err:s', 'text');
    await expect(single.incr('err:s')).rejects.toThrow(
      /^ERR value is not an integer or out of range, command was: \["incr","err:s"\]/,
    );
    await expect(single.evalsha('0'.repeat(40), [], [])).rejects.toThrow(/^NOSCRIPT No matching script/);
    // Auto-pipelined: HTTP 200 with a per-entry {error}; the client words it differently.
    const piped = client(shared);
    await expect(piped.incr('err:s')).rejects.toThrow(/^Command failed: ERR value is not an integer/);
    await expect(piped.evalsha('0'.repeat(40), [], [])).rejects.toThrow(/^Command failed: NOSCRIPT/);
    const res = await fetch(shared.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${shared.token}` },
      body: '["GET"]',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "ERR wrong number of arguments for 'get' command" });
  });

  it('runs scripts carrying the Upstash-only allow-key-locking flag, keeping other flags', async () => {
    const redis = client(shared);
    const script = `#!lua flags=allow-key-locking,no-writes\nreturn redis.call('GET', KEYS[1])`;
    await redis.set('lua:k', 'v');
    expect(await redis.eval(script, ['lua:k'], [])).toBe('v');
    expect(await redis.evalsha(sha1(script), ['lua:k'], [])).toBe('v'); // original SHA, as the client computes it
    // no-writes survived the rewrite: Redis still refuses a write from this script.
    await expect(
      redis.eval(`#!lua flags=allow-key-locking,no-writes\nreturn redis.call('SET', KEYS[1], 'x')`, ['lua:k'], []),
    ).rejects.toThrow(/Write commands are not allowed/);
    const loaded = `#!lua flags=allow-key-locking\nreturn ARGV[1] .. '!'`;
    expect(await redis.scriptLoad(loaded)).toBe(sha1(loaded));
    expect(await redis.scriptExists(sha1(loaded))).toEqual([1]);
    expect(await redis.evalsha(sha1(loaded), [], ['hi'])).toBe('hi!');
  });

  it('limit(): 120 of 121 pass, remaining 119…0, reset at the next window boundary, EVALSHA after one EVAL', async () => {
    await freshWindow();
    const e = await emulator(); // fresh SHA map, so the EVAL count starts from zero
    const rl = limiter(client(e));
    const id = `seq:${randomUUID()}`;
    const expectedReset = (Math.floor(Date.now() / WINDOW) + 1) * WINDOW;
    const results = [];
    for (let i = 0; i < 121; i++) results.push(await rl.limit(id));
    expect(results.filter((r) => r.success)).toHaveLength(120);
    expect(results.map((r) => r.remaining)).toEqual([...Array.from({ length: 120 }, (_, i) => 119 - i), 0]);
    expect(results[120]).toMatchObject({ success: false, limit: 120, remaining: 0, reset: expectedReset });
    for (const r of results) expect(r).toMatchObject({ limit: 120, reset: expectedReset });
    expect(e.commands.EVAL).toBe(1); // only the very first call fell back (NOSCRIPT) to EVAL
    expect(e.commands.EVALSHA).toBe(121);
    // ephemeralCache: once refused, this instance refuses locally until reset, without asking Redis.
    const before = e.requests;
    expect(await rl.limit(id)).toMatchObject({
      success: false,
      remaining: 0,
      reset: expectedReset,
      reason: 'cacheBlock',
    });
    expect(e.requests).toBe(before);
    expect(await direct.pttl(`${NS}rl:${id}:${expectedReset / WINDOW - 1}`)).toBeGreaterThan(0);
  });

  for (const enableAutoPipelining of [true, false]) {
    it(`300 concurrent limit() calls: exactly 120 pass, with remaining exactly {0..119} (enableAutoPipelining: ${enableAutoPipelining})`, async () => {
      await freshWindow();
      const e = await emulator();
      const rl = limiter(client(e, { enableAutoPipelining }));
      const id = `burst:${randomUUID()}`;
      const t0 = performance.now();
      const results = await Promise.all(Array.from({ length: 300 }, () => rl.limit(id)));
      const ms = Math.round(performance.now() - t0);
      console.info(
        `300 concurrent limit() calls (enableAutoPipelining: ${enableAutoPipelining}) took ${ms} ms over ${e.requests} HTTP requests`,
      );
      const passed = results.filter((r) => r.success);
      expect(passed).toHaveLength(120);
      expect(passed.map((r) => r.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i));
      expect(results.filter((r) => !r.success).every((r) => r.remaining === 0)).toBe(true);
      expect(await direct.get(`${NS}rl:${id}:${Math.floor(Date.now() / WINDOW)}`)).toBe('300');
    });
  }

  it('separate Ratelimit instances (server processes) share one budget', async () => {
    await freshWindow();
    const id = `shared:${randomUUID()}`;
    const [a, b] = [limiter(client(shared)), limiter(client(shared))];
    const results = await Promise.all(Array.from({ length: 140 }, (_, i) => (i % 2 ? a : b).limit(id)));
    expect(results.filter((r) => r.success)).toHaveLength(120);
  });

  it('rejects a wrong or missing token with 401', async () => {
    const redis = new Redis({ url: shared.url, token: 'wrong', enableTelemetry: false });
    await expect(redis.get('x')).rejects.toThrow(/Unauthorized/);
    await expect(limiter(redis).limit('x')).rejects.toThrow(/Unauthorized/);
    const res = await fetch(shared.url, { method: 'POST', body: '["PING"]' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Unauthorized' });
  });

  it("'error' mode: 500s, so the client throws and limit() rejects (it does not fail open by itself)", async () => {
    const e = await emulator();
    e.setMode('error');
    await expect(client(e).get('x')).rejects.toThrow(/simulated outage/);
    await expect(limiter(client(e)).limit('x')).rejects.toThrow(/simulated outage/);
    e.setMode('normal');
    expect(await client(e).ping()).toBe('PONG');
  });

  it("'hang' mode: limit() resolves after its timeout with success and limit 0; a per-request signal makes the client throw", async () => {
    const e = await emulator();
    e.setMode('hang');
    const t0 = Date.now();
    const r = await limiter(client(e, { retry: false }), 300).limit('hang');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(r).toMatchObject({ success: true, limit: 0, remaining: 0, reset: 0, reason: 'timeout' });
    const signalled = client(e, { retry: false, signal: () => AbortSignal.timeout(200) });
    await expect(signalled.get('x')).rejects.toThrow(/abort|timeout/i);
    // close() ends the withheld requests and the Redis connection, so vitest can exit.
    const pending = fetch(e.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${e.token}` },
      body: '["PING"]',
    }).then(
      () => 'answered',
      () => 'cut off',
    );
    await new Promise((res) => setTimeout(res, 50));
    await e.close();
    expect(await pending).toBe('cut off');
  });

  it("'slow' mode: answers after the delay; a shorter limit() timeout wins yet the hit was counted", async () => {
    const e = await emulator();
    e.setMode('slow', 300);
    const t0 = Date.now();
    expect(await client(e).ping()).toBe('PONG');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    await freshWindow();
    const id = `slow:${randomUUID()}`;
    expect(await limiter(client(e), 100).limit(id)).toMatchObject({ success: true, limit: 0, reason: 'timeout' });
    await new Promise((res) => setTimeout(res, 400));
    expect(await direct.get(`${NS}rl:${id}:${Math.floor(Date.now() / WINDOW)}`)).toBe('1');
  });

  it('runs as a separate process from the CLI', async () => {
    const tsx = path.resolve('node_modules/.bin/tsx');
    const token = `cli-${randomUUID()}`;
    const child = spawn(
      tsx,
      ['tests/support/upstash-emulator.ts', '--port', '0', '--token', token, '--prefix', NS, '--redis', REDIS_URL],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const url = line.toString().trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const redis = new Redis({ url, token, enableTelemetry: false });
      expect(await redis.set('cli:k', 'v')).toBe('OK');
      expect(await direct.get(`${NS}cli:k`)).toBe('v');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});

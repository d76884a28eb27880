import { describe, expect, it } from 'vitest';
import { KEY_LIMIT, WINDOW_MS } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';

/** A clock the test moves by hand, starting 5 s into a minute. */
function manualClock(start = Date.UTC(2026, 0, 1, 12, 0, 5)) {
  let t = start;
  return { now: () => t, set: (v: number) => (t = v), advance: (ms: number) => (t += ms) };
}

const MINUTE_START = Date.UTC(2026, 0, 1, 12, 0, 0);
const NEXT_MINUTE = MINUTE_START + 60_000;

describe('in-memory fixed-window rate limiter', () => {
  it('has the spec limit: 120 per 60 s', () => {
    expect(KEY_LIMIT).toBe(120);
    expect(WINDOW_MS).toBe(60_000);
  });

  it('counts remaining down to 0 and refuses the 121st request of a window', async () => {
    const clock = manualClock();
    const store = createMemoryStore(clock.now);
    for (let i = 1; i <= 120; i++) {
      const r = await store.hit('key:a', 120, 60_000);
      expect(r).toEqual({ success: true, limit: 120, remaining: 120 - i, reset: NEXT_MINUTE });
      clock.advance(100);
    }
    const refused = await store.hit('key:a', 120, 60_000);
    expect(refused).toEqual({ success: false, limit: 120, remaining: 0, reset: NEXT_MINUTE });
    const again = await store.hit('key:a', 120, 60_000);
    expect(again.success).toBe(false);
    expect(again.remaining).toBe(0);
  });

  it('reports the end of the clock-aligned window as reset', async () => {
    const clock = manualClock(MINUTE_START);
    const store = createMemoryStore(clock.now);
    expect((await store.hit('b', 5, 60_000)).reset).toBe(NEXT_MINUTE);
    clock.set(NEXT_MINUTE - 1);
    expect((await store.hit('b', 5, 60_000)).reset).toBe(NEXT_MINUTE);
    clock.set(NEXT_MINUTE);
    expect((await store.hit('b', 5, 60_000)).reset).toBe(NEXT_MINUTE + 60_000);
    // Other window sizes align to their own boundaries.
    clock.set(MINUTE_START + 12_345);
    expect((await store.hit('c', 5, 10_000)).reset).toBe(MINUTE_START + 20_000);
  });

  it('starts a new window exactly at the boundary, not a millisecond earlier', async () => {
    const clock = manualClock(NEXT_MINUTE - 2_000);
    const store = createMemoryStore(clock.now);
    for (let i = 0; i < 3; i++) await store.hit('k', 3, 60_000);
    clock.set(NEXT_MINUTE - 1);
    expect(await store.hit('k', 3, 60_000)).toMatchObject({ success: false, remaining: 0 });
    clock.set(NEXT_MINUTE);
    expect(await store.hit('k', 3, 60_000)).toEqual({
      success: true,
      limit: 3,
      remaining: 2,
      reset: NEXT_MINUTE + 60_000,
    });
  });

  it('forgets an exhausted window after a long pause', async () => {
    const clock = manualClock();
    const store = createMemoryStore(clock.now);
    for (let i = 0; i < 4; i++) await store.hit('k', 2, 60_000);
    clock.advance(3_600_000);
    expect(await store.hit('k', 2, 60_000)).toMatchObject({ success: true, remaining: 1 });
  });

  it('keeps a separate bucket per key', async () => {
    const clock = manualClock();
    const store = createMemoryStore(clock.now);
    for (let i = 0; i < 3; i++) await store.hit('key:one', 3, 60_000);
    expect((await store.hit('key:one', 3, 60_000)).success).toBe(false);
    expect(await store.hit('key:two', 3, 60_000)).toMatchObject({ success: true, remaining: 2 });
    expect(await store.hit('ip:127.0.0.1', 3, 60_000)).toMatchObject({ success: true, remaining: 2 });
    // Buckets that only differ in case are different buckets.
    expect(await store.hit('KEY:ONE', 3, 60_000)).toMatchObject({ success: true, remaining: 2 });
  });

  it('keeps stores independent of each other', async () => {
    const clock = manualClock();
    const a = createMemoryStore(clock.now);
    const b = createMemoryStore(clock.now);
    await a.hit('k', 2, 60_000);
    await a.hit('k', 2, 60_000);
    expect((await a.hit('k', 2, 60_000)).success).toBe(false);
    expect(await b.hit('k', 2, 60_000)).toMatchObject({ success: true, remaining: 1 });
  });

  it('counts every one of many concurrent hits exactly once', async () => {
    const store = createMemoryStore(manualClock().now);
    const results = await Promise.all(Array.from({ length: 150 }, () => store.hit('burst', 120, 60_000)));
    expect(results.filter((r) => r.success)).toHaveLength(120);
    expect(new Set(results.filter((r) => r.success).map((r) => r.remaining)).size).toBe(120);
  });
});

import { describe, expect, it } from 'vitest';
import { keyLimit, WINDOW_MS } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';

/** A clock the test moves by hand, starting 5 s into a minute. */
function manualClock(start = Date.UTC(2026, 0, 1, 12, 0, 5)) {
  let t = start;
  return { now: () => t, set: (v: number) => (t = v), advance: (ms: number) => (t += ms) };
}

const MINUTE_START = Date.UTC(2026, 0, 1, 12, 0, 0);
const NEXT_MINUTE = MINUTE_START + 60_000;

describe('in-memory fixed-window rate limiter', () => {
  it('has the default limit: 120 per 60 s', () => {
    expect(keyLimit()).toBe(120);
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

  it('sweeps the counters of ended windows, so memory is bounded by the buckets of the current window', async () => {
    const clock = manualClock(MINUTE_START + 1_000);
    const store = createMemoryStore(clock.now);
    for (let i = 0; i < 1_000; i++) await store.hit(`addr:10.0.${i >> 8}.${i & 255}`, 30, 60_000);
    expect(store.size()).toBe(1_000);
    // Still inside the window: nothing is dropped, and a known bucket keeps its count.
    clock.set(NEXT_MINUTE - 1);
    expect(await store.hit('addr:10.0.0.0', 30, 60_000)).toMatchObject({ remaining: 28 });
    expect(store.size()).toBe(1_000);
    // The first hit of the next window drops every counter of the previous one.
    clock.set(NEXT_MINUTE + 5);
    expect(await store.hit('key:new', 120, 60_000)).toMatchObject({ success: true, remaining: 119 });
    expect(store.size()).toBe(1);
    // A long idle gap: the next hit still finds only its own counter.
    clock.advance(86_400_000);
    await store.hit('key:later', 120, 60_000);
    expect(store.size()).toBe(1);
  });

  it('sweeps on the first hit of a new window whichever bucket it is for', async () => {
    const clock = manualClock(MINUTE_START);
    const store = createMemoryStore(clock.now);
    await store.hit('a', 5, 60_000);
    await store.hit('b', 5, 60_000);
    clock.set(NEXT_MINUTE);
    await store.hit('a', 5, 60_000);
    expect(store.size()).toBe(1); // b's old counter went, a's was replaced by its new window's
  });

  it('keeps windows of different lengths apart: a short window never resets or sweeps a long one', async () => {
    const clock = manualClock(MINUTE_START + 1_000);
    const store = createMemoryStore(clock.now);
    for (let i = 0; i < 3; i++) await store.hit('k', 3, 60_000);
    // Hits on 10 s windows (same bucket name or another) in between...
    clock.set(MINUTE_START + 25_000);
    expect(await store.hit('k', 3, 10_000)).toMatchObject({
      success: true,
      remaining: 2,
      reset: MINUTE_START + 30_000,
    });
    expect(await store.hit('other', 3, 10_000)).toMatchObject({ success: true, remaining: 2 });
    // ...leave the minute's count alone: it is still exhausted until the minute ends.
    expect(await store.hit('k', 3, 60_000)).toMatchObject({ success: false, remaining: 0, reset: NEXT_MINUTE });
    clock.set(MINUTE_START + 35_000);
    expect(await store.hit('other', 3, 10_000)).toMatchObject({ success: true, remaining: 2 });
    expect(await store.hit('k', 3, 60_000)).toMatchObject({ success: false, remaining: 0 });
    // The ended 10 s windows are swept, the running minute is not.
    expect(store.size()).toBe(2);
    clock.set(NEXT_MINUTE);
    expect(await store.hit('k', 3, 60_000)).toMatchObject({ success: true, remaining: 2 });
  });

  it('exposes its clock, so Retry-After is measured on the clock the window was counted with', async () => {
    const clock = manualClock(MINUTE_START + 59_500);
    const store = createMemoryStore(clock.now);
    const r = await store.hit('k', 1, 60_000);
    expect(store.now()).toBe(MINUTE_START + 59_500);
    expect(r.reset - store.now()).toBe(500);
  });

  it('survives a clock that steps back into an earlier window (counts that window afresh)', async () => {
    const clock = manualClock(NEXT_MINUTE + 1_000);
    const store = createMemoryStore(clock.now);
    await store.hit('k', 2, 60_000);
    await store.hit('k', 2, 60_000);
    clock.set(MINUTE_START + 30_000);
    expect(await store.hit('k', 2, 60_000)).toEqual({ success: true, limit: 2, remaining: 1, reset: NEXT_MINUTE });
  });

  it('counts 300 concurrent hits exactly: 120 pass with remaining {0..119} once each, 180 refused', async () => {
    const store = createMemoryStore(manualClock().now);
    const results = await Promise.all(Array.from({ length: 300 }, () => store.hit('key:burst', 120, WINDOW_MS)));
    const passed = results.filter((r) => r.success);
    expect(passed).toHaveLength(120);
    expect(passed.map((r) => r.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    expect(results.filter((r) => !r.success).every((r) => r.remaining === 0)).toBe(true);
  });
});

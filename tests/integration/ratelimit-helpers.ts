/** Shared by the tests/{unit,integration}/ratelimit-*.test.ts files (not a test file itself; no database). */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { WINDOW_MS } from '@/lib/ratelimit';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The Upstash store counts in real-clock windows (@upstash/ratelimit reads Date.now()): a counting test
 * must start well inside one, or its hits would straddle two. Waits for the next window when less than
 * `margin` ms are left (at most ~5 s, 1 run in 12).
 */
export async function freshWindow(margin = 5_000): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < margin) await new Promise((r) => setTimeout(r, left + 50));
}

/** A URL nobody listens on: a port that was free a moment ago, so connecting is refused at once. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A clock the test moves by hand. */
export function manualClock(start: number) {
  let t = start;
  return { now: () => t, set: (v: number) => void (t = v), advance: (ms: number) => void (t += ms) };
}

export const limitHeaders = (res: { headers: Headers }) => ({
  limit: res.headers.get('x-ratelimit-limit'),
  remaining: res.headers.get('x-ratelimit-remaining'),
});

/** When the window that holds `now` (epoch ms) ends, in Unix epoch seconds: what X-RateLimit-Reset says. */
export const windowEndSeconds = (now: number) => String((Math.floor(now / WINDOW_MS) + 1) * (WINDOW_MS / 1000));

/**
 * The three headers present: Limit exactly `limit` (120 for a key, 30 for a request without a valid key),
 * Remaining a whole number 0..limit, Reset a whole minute in Unix epoch seconds: the end of the window that
 * holds `now` on the store's clock when the test knows it, else within the next minute.
 */
export function expectLimitHeaders(
  res: { status: number; headers: Headers; text?: string },
  label = '',
  { limit: expected = 120, now }: { limit?: number; now?: number } = {},
) {
  const { limit, remaining } = limitHeaders(res);
  expect(limit, `${label} ${res.status} X-RateLimit-Limit`).toBe(String(expected));
  expect(remaining, `${label} ${res.status} X-RateLimit-Remaining`).toMatch(/^(0|[1-9]\d*)$/);
  expect(Number(remaining)).toBeLessThanOrEqual(expected);
  const reset = res.headers.get('x-ratelimit-reset');
  if (now !== undefined) expect(reset, `${label} ${res.status} X-RateLimit-Reset`).toBe(windowEndSeconds(now));
  else {
    expect(reset, `${label} ${res.status} X-RateLimit-Reset`).toMatch(/^[1-9]\d*$/);
    expect(Number(reset) % 60).toBe(0);
    expect(Number(reset) * 1000 - Date.now()).toBeLessThanOrEqual(WINDOW_MS);
    expect(Number(reset) * 1000).toBeGreaterThan(Date.now() - WINDOW_MS);
  }
  return Number(remaining);
}

/** Counts statuses, e.g. { 200: 120, 429: 180 }. */
export function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

export const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/**
 * The Upstash REST emulator in a process of its own, as Upstash is another machine: an emulator inside the
 * test process is starved whenever the test process is busy (embedded PGlite answering a burst runs for
 * seconds without yielding to I/O), so it could not answer in time where a real Upstash would have.
 */
export async function spawnUpstashEmulator(
  keyPrefix: string,
): Promise<{ url: string; token: string; close(): Promise<void> }> {
  const tsx = path.resolve('node_modules/.bin/tsx');
  const token = `rl-${randomUUID()}`;
  const child = spawn(
    tsx,
    ['tests/support/upstash-emulator.ts', '--port', '0', '--token', token, '--prefix', keyPrefix, '--redis', REDIS_URL],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = once(child, 'exit');
  const [line] = (await Promise.race([once(child.stdout!, 'data'), exited.then(() => [Buffer.from('')])])) as [Buffer];
  const url = line.toString().trim();
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url))
    throw new Error(`the Upstash emulator did not start: ${JSON.stringify(url)}`);
  return {
    url,
    token,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

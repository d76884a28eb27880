import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey } from '../support/keys';
import { limitHeaders, manualClock } from './ratelimit-helpers';

// Issue 3 point 5, the address: X-Forwarded-For only with TRUST_PROXY, else the address our server stamps.
// env() reads TRUST_PROXY once per process; this file flips it through a mock of lib/env.
const trust = vi.hoisted(() => ({ proxy: false }));
vi.mock('@/lib/env', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/env')>();
  return { ...actual, env: () => ({ ...actual.env(), TRUST_PROXY: trust.proxy }) };
});

const t = useTestDatabase();
const clock = manualClock(Date.UTC(2026, 6, 5, 12, 0, 4));

beforeEach(() => setRateLimitStore(createMemoryStore(clock.now)));
afterEach(() => {
  setRateLimitStore(undefined);
  trust.proxy = false;
});

const ip = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomUUID().slice(0, 8)}`;
const keyless = (headers: Record<string, string>) => get('/api/v1/sites', { headers });

describe('TRUST_PROXY on (behind Vercel or another trusted proxy)', () => {
  beforeEach(() => {
    trust.proxy = true;
  });

  it("counts per X-Forwarded-For's first entry: two clients behind one proxy address get two buckets", async () => {
    const proxy = ip();
    const [a, b] = [ip(), ip()];
    for (let i = 0; i < 30; i++)
      await keyless({ 'x-portal-client-address': proxy, 'x-forwarded-for': `${a}, ${proxy}` });
    expect((await keyless({ 'x-portal-client-address': proxy, 'x-forwarded-for': `${a}, ${proxy}` })).status).toBe(429);
    // Same first entry, whatever follows it: the same bucket.
    expect((await keyless({ 'x-portal-client-address': ip(), 'x-forwarded-for': a })).status).toBe(429);
    const other = await keyless({ 'x-portal-client-address': proxy, 'x-forwarded-for': `${b}, ${proxy}` });
    expect(other.status).toBe(401);
    expect(limitHeaders(other)).toEqual({ limit: '120', remaining: '29' });
  });

  it('falls back to the stamped address when there is no X-Forwarded-For', async () => {
    const stamped = ip();
    expect(limitHeaders(await keyless({ 'x-portal-client-address': stamped }))).toEqual({
      limit: '120',
      remaining: '29',
    });
    expect(limitHeaders(await keyless({ 'x-portal-client-address': stamped }))).toEqual({
      limit: '120',
      remaining: '28',
    });
  });

  it('a valid key is still counted per key, wherever it comes from', async () => {
    const user = await createPublisher(t.db);
    await createSite(t.db, user.id);
    const { raw: key } = await issueKey(user.id);
    expect(limitHeaders(await get('/api/v1/sites', { key, headers: { 'x-forwarded-for': ip() } }))).toEqual({
      limit: '120',
      remaining: '119',
    });
    expect(limitHeaders(await get('/api/v1/sites', { key, headers: { 'x-forwarded-for': ip() } }))).toEqual({
      limit: '120',
      remaining: '118',
    });
  });
});

describe('TRUST_PROXY off (our own server, scripts/serve.mjs)', () => {
  it('ignores X-Forwarded-For: rotating it does not escape the per-address limit', async () => {
    const stamped = ip();
    for (let i = 0; i < 30; i++) {
      const res = await keyless({ 'x-portal-client-address': stamped, 'x-forwarded-for': ip() });
      expect(res.status).toBe(401);
    }
    const res = await keyless({ 'x-portal-client-address': stamped, 'x-forwarded-for': ip() });
    expect(res.status).toBe(429);
    // Only the stamped address makes a different bucket.
    expect(limitHeaders(await keyless({ 'x-portal-client-address': ip(), 'x-forwarded-for': ip() }))).toEqual({
      limit: '120',
      remaining: '29',
    });
  });

  it('two X-Forwarded-For values from one stamped address share one bucket', async () => {
    const stamped = ip();
    expect(
      limitHeaders(await keyless({ 'x-portal-client-address': stamped, 'x-forwarded-for': '203.0.113.1' })),
    ).toEqual({ limit: '120', remaining: '29' });
    expect(
      limitHeaders(await keyless({ 'x-portal-client-address': stamped, 'x-forwarded-for': '203.0.113.2' })),
    ).toEqual({ limit: '120', remaining: '28' });
  });
});

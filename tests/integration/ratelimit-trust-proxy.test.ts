import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_ADDRESS_HEADER } from '@/lib/http/client-address';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { get } from '../support/api';
import { forgedStamp, newClientAddress, stamped } from '../support/client-address';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey } from '../support/keys';
import { limitHeaders, manualClock } from './ratelimit-helpers';

// Issue 18 point 2: the keyless budget of 30 a minute per address, through the route handlers, for a client who
// writes the address headers himself. TRUST_PROXY is a hop count; env() reads it once per process, so this file
// sets it through a mock of lib/platform/env.
const trust = vi.hoisted(() => ({ proxyHops: 0 }));
vi.mock('@/lib/platform/env', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/lib/platform/env')>();
  return { ...actual, env: () => ({ ...actual.env(), TRUST_PROXY: trust.proxyHops }) };
});

const t = useTestDatabase();
const clock = manualClock(Date.UTC(2026, 6, 5, 12, 0, 4));

beforeEach(() => setRateLimitStore(createMemoryStore(clock.now)));
afterEach(() => {
  setRateLimitStore(undefined);
  trust.proxyHops = 0;
});

const keyless = (headers: Record<string, string>) => get('/api/v1/sites', { headers });
const LIMIT = 30;

/** Spends the address's whole budget, one request per header set, and expects the next one refused. */
async function expectOneBudget(headersOf: (i: number) => Record<string, string>) {
  for (let i = 0; i < LIMIT; i++) {
    const res = await keyless(headersOf(i));
    expect(res.status, `request ${i + 1}`).toBe(401);
    expect(limitHeaders(res).remaining, `request ${i + 1}`).toBe(String(LIMIT - 1 - i));
  }
  expect((await keyless(headersOf(LIMIT))).status).toBe(429);
}

describe('TRUST_PROXY off: only our own server names the caller', () => {
  it('a stamp the client writes himself gets no budget of its own, however he varies it', async () => {
    // Unsigned, or signed with a key of his own; with X-Forwarded-For varied too. All are one caller: unknown.
    await expectOneBudget((i): Record<string, string> =>
      i % 2
        ? { [CLIENT_ADDRESS_HEADER]: `203.0.113.${i}`, 'x-forwarded-for': `198.51.100.${i}` }
        : { ...forgedStamp(newClientAddress()), 'x-forwarded-for': newClientAddress() },
    );
  });

  it('our stamp counts per address, and X-Forwarded-For changes nothing', async () => {
    const client = newClientAddress();
    await expectOneBudget(() => ({ ...stamped(client), 'x-forwarded-for': newClientAddress() }));
    // Another stamped address is another client.
    expect(limitHeaders(await keyless(stamped(newClientAddress())))).toEqual({ limit: '30', remaining: '29' });
  });

  it('counts IPv6 per /64: the addresses of one line share one budget', async () => {
    await expectOneBudget((i) => stamped(`2001:db8:77:1::${(i + 1).toString(16)}`));
    expect((await keyless(stamped('2001:db8:77:2::1'))).status).toBe(401);
  });
});

describe('TRUST_PROXY = hops (behind Vercel or a load balancer that appends to X-Forwarded-For)', () => {
  it('1: the rightmost entry is the client; entries the client adds on its left make no new budget', async () => {
    trust.proxyHops = 1;
    const proxy = stamped('10.0.0.1');
    const [a, b] = ['203.0.113.9', '203.0.113.10'];
    await expectOneBudget((i) => ({ ...proxy, 'x-forwarded-for': `${newClientAddress()}, 198.51.100.${i}, ${a}` }));
    const other = await keyless({ ...proxy, 'x-forwarded-for': b });
    expect(other.status).toBe(401);
    expect(limitHeaders(other)).toEqual({ limit: '30', remaining: '29' });
  });

  it('2: the entry two from the right, behind two appending proxies', async () => {
    trust.proxyHops = 2;
    const client = '203.0.113.20';
    await expectOneBudget((i) => ({
      ...stamped('10.0.0.2'),
      'x-forwarded-for': `198.51.100.${i}, ${client}, 10.0.0.1`,
    }));
  });

  it('a request without enough entries counts as the proxy our server saw, not as what it claims', async () => {
    trust.proxyHops = 2;
    await expectOneBudget((i) => ({ ...stamped('10.0.0.3'), 'x-forwarded-for': `198.51.100.${i}` }));
  });

  it('a valid key is still counted per key, wherever it comes from', async () => {
    trust.proxyHops = 1;
    const user = await createPublisher(t.db);
    await createSite(t.db, user.id);
    const { raw: key } = await issueKey(user.id);
    for (const remaining of ['119', '118']) {
      const res = await get('/api/v1/sites', { key, headers: { 'x-forwarded-for': newClientAddress() } });
      expect(limitHeaders(res)).toEqual({ limit: '120', remaining });
    }
  });
});

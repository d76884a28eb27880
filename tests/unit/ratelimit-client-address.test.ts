import { afterEach, describe, expect, it, vi } from 'vitest';
import { readEnv } from '@/lib/platform/env';
import { addressPolicy } from '@/lib/http/rate-limit';
import {
  addressBucket,
  CLIENT_ADDRESS_HEADER,
  clientAddress,
  UNKNOWN_ADDRESS,
  unknownAddressWarning,
} from '@/lib/http/client-address';
import { forgedStamp, stamped, stampSecret } from '../support/client-address';

// Issue 18 point 2: no header a client writes is believed unless the deployment says a proxy writes it.
const request = (headers: Record<string, string>) => new Request('http://localhost/api/v1/sites', { headers });
const OFF = 0;
/** The bucket a request spends behind our own server (its stamp key) with TRUST_PROXY = hops. */
const bucketOf = (headers: Record<string, string>, proxyHops = OFF) =>
  clientAddress(request(headers), { proxyHops, stampSecret: stampSecret() });
/** Under any other server (`next start`, Vercel): no stamp key in the process. */
const withoutOurServer = (headers: Record<string, string>) =>
  clientAddress(request(headers), { proxyHops: OFF, stampSecret: undefined });

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('the stamp of our own server (TRUST_PROXY off)', () => {
  it('is believed when our server signed it, and X-Forwarded-For is ignored', () => {
    expect(bucketOf({ ...stamped('192.0.2.1'), 'x-forwarded-for': '203.0.113.9' })).toBe('192.0.2.1');
    expect(bucketOf({ ...stamped('192.0.2.1'), 'x-forwarded-for': '203.0.113.10' })).toBe('192.0.2.1');
  });

  it('is ignored when a client writes it: unsigned, signed with another key, or a signature moved to another address', () => {
    const genuine = stamped('192.0.2.1')[CLIENT_ADDRESS_HEADER];
    const signature = genuine.split(' ')[1];
    const forgeries = [
      '203.0.113.7',
      '203.0.113.7 ',
      `203.0.113.7 ${'A'.repeat(43)}`,
      `203.0.113.7 ${signature}`,
      `${genuine}x`,
      ` ${signature}`,
      forgedStamp('203.0.113.8')[CLIENT_ADDRESS_HEADER],
    ];
    for (const forged of forgeries) {
      expect(bucketOf({ [CLIENT_ADDRESS_HEADER]: forged }), forged).toBe(UNKNOWN_ADDRESS);
    }
    // So varying it gives a client no bucket of his own: every forgery lands in the same one.
    const buckets = new Set(
      forgeries.map((forged) => addressPolicy(request({ [CLIENT_ADDRESS_HEADER]: forged })).bucket),
    );
    expect(buckets).toEqual(new Set([`addr:${UNKNOWN_ADDRESS}`]));
  });

  it('is believed nowhere without our server (next start, Vercel): no key, no stamp', () => {
    expect(withoutOurServer(stamped('192.0.2.1'))).toBe(UNKNOWN_ADDRESS);
    expect(withoutOurServer({ [CLIENT_ADDRESS_HEADER]: '192.0.2.1' })).toBe(UNKNOWN_ADDRESS);
    expect(withoutOurServer({ 'x-forwarded-for': '203.0.113.9' })).toBe(UNKNOWN_ADDRESS);
    expect(bucketOf({})).toBe(UNKNOWN_ADDRESS);
  });
});

describe('TRUST_PROXY as a hop count', () => {
  it('1 (Vercel, one load balancer): the rightmost X-Forwarded-For entry, whatever the client put left of it', () => {
    expect(bucketOf({ 'x-forwarded-for': '203.0.113.9' }, 1)).toBe('203.0.113.9');
    // An appending proxy leaves the client's own entries on the left: they change nothing.
    for (const forged of ['198.51.100.1', '198.51.100.2, 198.51.100.3', 'not an address']) {
      expect(bucketOf({ 'x-forwarded-for': `${forged}, 203.0.113.9` }, 1)).toBe('203.0.113.9');
    }
  });

  it('N behind N appending proxies: the entry N from the right', () => {
    const chain = '198.51.100.66, 203.0.113.9, 10.0.0.1';
    expect(bucketOf({ 'x-forwarded-for': chain }, 2)).toBe('203.0.113.9');
    expect(bucketOf({ 'x-forwarded-for': chain }, 3)).toBe('198.51.100.66');
    expect(bucketOf({ 'x-forwarded-for': ` 203.0.113.9 ,10.0.0.2,  10.0.0.1 ` }, 3)).toBe('203.0.113.9');
  });

  it("without such an entry: our server's stamp (the proxy's address), else unknown; never a client-written entry", () => {
    const proxy = stamped('10.0.0.1');
    expect(bucketOf({ ...proxy, 'x-forwarded-for': '203.0.113.9' }, 2)).toBe('10.0.0.1');
    expect(bucketOf({ ...proxy }, 1)).toBe('10.0.0.1');
    expect(bucketOf({ ...proxy, 'x-forwarded-for': '203.0.113.9, ' }, 1)).toBe('10.0.0.1');
    expect(bucketOf({ ...proxy, 'x-forwarded-for': '203.0.113.9, garbage' }, 1)).toBe('10.0.0.1');
    expect(bucketOf({ 'x-forwarded-for': '203.0.113.9' }, 2)).toBe(UNKNOWN_ADDRESS);
    expect(bucketOf({ [CLIENT_ADDRESS_HEADER]: '203.0.113.7' }, 1)).toBe(UNKNOWN_ADDRESS);
  });

  it('is read and validated by readEnv: 1/true, 0/false/unset, a number of hops; anything else names TRUST_PROXY', () => {
    const hops = (value?: string) => readEnv(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY;
    expect([hops('1'), hops('true'), hops('0'), hops('false'), hops(undefined), hops('')]).toEqual([1, 1, 0, 0, 0, 0]);
    expect([hops('2'), hops('10')]).toEqual([2, 10]);
    for (const bad of ['yes', '-1', '1.5', '11', '01x', ' 1', 'TRUE']) {
      expect(() => hops(bad), bad).toThrow(/TRUST_PROXY: must be 0\/false \(no proxy\), 1\/true, or the number/);
    }
  });

  it('defaults to the TRUST_PROXY of the environment (read once by env())', async () => {
    const r = request({ ...stamped('192.0.2.1'), 'x-forwarded-for': '203.0.113.9, 198.51.100.4' });
    vi.stubEnv('TRUST_PROXY', '2');
    vi.resetModules();
    const trusting = await import('@/lib/http/client-address');
    expect(trusting.clientAddress(r)).toBe('203.0.113.9');
    const policies = await import('@/lib/http/rate-limit');
    expect(policies.addressPolicy(r).bucket).toBe('addr:203.0.113.9');

    vi.stubEnv('TRUST_PROXY', '0');
    vi.resetModules();
    const plain = await import('@/lib/http/client-address');
    expect(plain.clientAddress(r)).toBe('192.0.2.1');
  });
});

describe('one bucket per client', () => {
  it('IPv4 as dotted decimal, IPv4-mapped IPv6 unwrapped, ports and brackets dropped', () => {
    expect(addressBucket('192.0.2.1')).toBe('192.0.2.1');
    expect(addressBucket('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressBucket('::FFFF:192.0.2.1')).toBe('192.0.2.1');
    expect(addressBucket('192.0.2.1:5000')).toBe('192.0.2.1');
    expect(addressBucket('[2001:db8::1]:443')).toBe('2001:db8::/64');
    expect(bucketOf(stamped('::ffff:127.0.0.1'))).toBe('127.0.0.1');
  });

  it('IPv6 per /64: one subscriber line is one client, whichever of its addresses it uses', () => {
    expect(addressBucket('2001:DB8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('fe80::/64');
    expect(bucketOf({ 'x-forwarded-for': '2001:db8:1:2::99' }, 1)).toBe('2001:db8:1:2::/64');
    expect(bucketOf(stamped('2001:db8:1:2::7'))).toBe(bucketOf(stamped('2001:db8:1:2:ffff::8')));
  });

  it('anything that is no address is none: no bucket named after what a client sends', () => {
    for (const text of ['', 'unknown', 'x'.repeat(5_000), '256.1.1.1', '1.2.3', '0x7f.1', '2001:db8::1::2', '::1]']) {
      expect(addressBucket(text), text).toBeNull();
    }
    expect(bucketOf({ 'x-forwarded-for': 'x'.repeat(5_000) }, 1)).toBe(UNKNOWN_ADDRESS);
  });
});

describe('addressPolicy', () => {
  it('names the bucket after the client address, separate from every key bucket', () => {
    expect(addressPolicy(request(stamped('192.0.2.1')))).toMatchObject({ bucket: 'addr:192.0.2.1', limit: 30 });
  });
});

describe('unknownAddressWarning', () => {
  it('speaks only when neither our server nor a trusted proxy names the caller', () => {
    expect(unknownAddressWarning({ proxyHops: 0, stampSecret: undefined })).toMatch(
      /^Client addresses are unknown: .* \(1 on Vercel\)\.$/,
    );
    expect(unknownAddressWarning({ proxyHops: 1, stampSecret: undefined })).toBeNull();
    expect(unknownAddressWarning({ proxyHops: 0, stampSecret: stampSecret() })).toBeNull();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { readEnv } from '@/lib/env';
import { addressPolicy } from '@/lib/http/rate-limit';
import { CLIENT_ADDRESS_HEADER, clientAddress } from '@/lib/http/client-address';

const request = (headers: Record<string, string>) => new Request('http://localhost/api/v1/sites', { headers });

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('clientAddress', () => {
  it('without TRUST_PROXY: ignores X-Forwarded-For and uses the address our server stamped', () => {
    const r = request({ 'x-forwarded-for': '203.0.113.9', [CLIENT_ADDRESS_HEADER]: '192.0.2.1' });
    expect(clientAddress(r, false)).toBe('192.0.2.1');
    // Two requests with different X-Forwarded-For from the same socket address share one bucket.
    const other = request({ 'x-forwarded-for': '203.0.113.10', [CLIENT_ADDRESS_HEADER]: '192.0.2.1' });
    expect(addressPolicyFor(other, false)).toBe(addressPolicyFor(r, false));
  });

  it("without TRUST_PROXY and without our server's header: one shared 'unknown' bucket, never X-Forwarded-For", () => {
    expect(clientAddress(request({ 'x-forwarded-for': '203.0.113.9' }), false)).toBe('unknown');
    expect(clientAddress(request({}), false)).toBe('unknown');
    expect(clientAddress(request({ [CLIENT_ADDRESS_HEADER]: '   ' }), false)).toBe('unknown');
  });

  it("with TRUST_PROXY: X-Forwarded-For's first entry is the client", () => {
    const r = request({ 'x-forwarded-for': ' 203.0.113.9 , 10.0.0.1, 10.0.0.2', [CLIENT_ADDRESS_HEADER]: '10.0.0.2' });
    expect(clientAddress(r, true)).toBe('203.0.113.9');
    // Two different clients behind the same proxy: two buckets.
    const a = request({ 'x-forwarded-for': '203.0.113.9, 10.0.0.1', [CLIENT_ADDRESS_HEADER]: '10.0.0.1' });
    const b = request({ 'x-forwarded-for': '203.0.113.77, 10.0.0.1', [CLIENT_ADDRESS_HEADER]: '10.0.0.1' });
    expect(addressPolicyFor(a, true)).not.toBe(addressPolicyFor(b, true));
    expect(addressPolicyFor(a, true)).toBe('addr:203.0.113.9');
  });

  it('with TRUST_PROXY but no usable X-Forwarded-For: the stamped address, then unknown', () => {
    expect(clientAddress(request({ [CLIENT_ADDRESS_HEADER]: '192.0.2.1' }), true)).toBe('192.0.2.1');
    expect(
      clientAddress(request({ 'x-forwarded-for': ' , 10.0.0.1', [CLIENT_ADDRESS_HEADER]: '192.0.2.1' }), true),
    ).toBe('192.0.2.1');
    expect(clientAddress(request({}), true)).toBe('unknown');
  });

  it('gives one client one spelling: IPv4-mapped IPv6 unwrapped, IPv6 lower-cased, length capped', () => {
    expect(clientAddress(request({ [CLIENT_ADDRESS_HEADER]: '::ffff:192.0.2.1' }), false)).toBe('192.0.2.1');
    expect(clientAddress(request({ 'x-forwarded-for': '::FFFF:192.0.2.1' }), true)).toBe('192.0.2.1');
    expect(clientAddress(request({ [CLIENT_ADDRESS_HEADER]: '2001:DB8::1' }), false)).toBe('2001:db8::1');
    expect(clientAddress(request({ 'x-forwarded-for': 'x'.repeat(5_000) }), true)).toHaveLength(64);
  });

  it('reads TRUST_PROXY through readEnv: 1/true trust the proxy, 0/false/unset do not', () => {
    const r = request({ 'x-forwarded-for': '203.0.113.9', [CLIENT_ADDRESS_HEADER]: '192.0.2.1' });
    const trust = (value?: string) => readEnv(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY;
    expect(clientAddress(r, trust('1'))).toBe('203.0.113.9');
    expect(clientAddress(r, trust('true'))).toBe('203.0.113.9');
    expect(clientAddress(r, trust('0'))).toBe('192.0.2.1');
    expect(clientAddress(r, trust('false'))).toBe('192.0.2.1');
    expect(clientAddress(r, trust(undefined))).toBe('192.0.2.1');
    expect(clientAddress(r, trust(''))).toBe('192.0.2.1');
    expect(() => trust('yes')).toThrow(/TRUST_PROXY/);
  });

  it('defaults to the TRUST_PROXY of the environment (read once by env())', async () => {
    const r = request({ 'x-forwarded-for': '203.0.113.9', [CLIENT_ADDRESS_HEADER]: '192.0.2.1' });
    vi.stubEnv('TRUST_PROXY', '1');
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

/** The address bucket a request would spend, with TRUST_PROXY as given. */
function addressPolicyFor(r: Request, trustProxy: boolean): string {
  return `addr:${clientAddress(r, trustProxy)}`;
}

describe('addressPolicy', () => {
  it('names the bucket after the client address, separate from every key bucket', () => {
    const r = request({ [CLIENT_ADDRESS_HEADER]: '192.0.2.1' });
    expect(addressPolicy(r)).toMatchObject({ bucket: 'addr:192.0.2.1', limit: 30 });
  });
});

import { describe, expect, it } from 'vitest';
import { isLoopbackHost, reachableBeyondLoopback } from '@/lib/identity/demo-gate';
import { readEnv } from '@/lib/platform/env';

// Issue 18 point 3: which servers others can reach. The database side is tests/integration/demo-gate.test.ts.
describe('isLoopbackHost', () => {
  it('knows this machine: 127.0.0.0/8, ::1 (bracketed or not, IPv4-mapped) and localhost', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
  });

  it('anything else reaches beyond: every interface, a LAN or public address, a name', () => {
    for (const host of [
      '0.0.0.0',
      '::',
      '[::]',
      '192.168.1.20',
      '10.0.0.1',
      '203.0.113.9',
      'my-laptop',
      'example.com',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe('reachableBeyondLoopback', () => {
  it('our server on loopback: only this machine', () => {
    expect(reachableBeyondLoopback({ listenHost: '127.0.0.1', vercel: false })).toBeNull();
  });

  it('our server on another address, any other server (next start), and Vercel: beyond, saying why', () => {
    expect(reachableBeyondLoopback({ listenHost: '0.0.0.0', vercel: false })).toBe(
      'the server is set to listen on 0.0.0.0 (HOST), beyond this machine',
    );
    expect(reachableBeyondLoopback({ vercel: false })).toMatch(/not started by npm start, so it may listen on every/);
    expect(reachableBeyondLoopback({ listenHost: '127.0.0.1', vercel: true })).toBe(
      'this Vercel deployment is on the internet',
    );
  });
});

describe('ALLOW_DEMO and VERCEL in lib/platform/env.ts', () => {
  it('ALLOW_DEMO is off unless 1/true, and a typo names it', () => {
    expect(
      [{}, { ALLOW_DEMO: '0' }, { ALLOW_DEMO: 'false' }, { ALLOW_DEMO: '' }].map((e) => readEnv(e).ALLOW_DEMO),
    ).toEqual([false, false, false, false]);
    expect([readEnv({ ALLOW_DEMO: '1' }).ALLOW_DEMO, readEnv({ ALLOW_DEMO: 'true' }).ALLOW_DEMO]).toEqual([true, true]);
    expect(() => readEnv({ ALLOW_DEMO: 'yes' })).toThrow(/ALLOW_DEMO/);
  });

  it('VERCEL is a deployment on Vercel whenever it is set', () => {
    expect(readEnv({}).VERCEL).toBe(false);
    expect(readEnv({ VERCEL: '1' }).VERCEL).toBe(true);
  });
});

import { verify } from '@node-rs/argon2';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { setRateLimitStore } from '@/lib/ratelimit';
import { signIn } from '@/lib/identity/sign-in';
import { SIGN_IN_LIMITS } from '@/lib/platform/limits';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';

// The real argon2, with its verify() counted: response time must not tell which accounts exist, so every
// answer of "invalid" costs one full argon2 verification; a throttled attempt costs none.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...real, verify: vi.fn(real.verify) };
});

const t = useTestDatabase();
const verifyCalls = () => vi.mocked(verify).mock.calls.length;

beforeAll(() => setRateLimitStore(createMemoryStore()));
afterAll(() => setRateLimitStore(undefined));
// A block body: a function returned from beforeEach (mockClear returns the mock) would be run as a cleanup hook.
beforeEach(() => {
  vi.mocked(verify).mockClear();
});

describe('sign-in cost does not reveal accounts', () => {
  it('verifies one argon2 hash for a wrong password, an unknown e-mail and an account without a password alike', async () => {
    const withPassword = await createPublisher(t.db, { password: 'decoy-test-password' });
    const withoutPassword = await createPublisher(t.db);

    expect(await signIn(withPassword.email, 'wrong', '192.0.2.10')).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyCalls()).toBe(1);
    expect(await signIn(`unknown-${withPassword.id}@test.example`, 'wrong', '192.0.2.11')).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(verifyCalls()).toBe(2);
    expect(await signIn(withoutPassword.email, 'wrong', '192.0.2.12')).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyCalls()).toBe(3);

    // The decoy is a real argon2id hash of the same cost, not a cheap string that fails fast.
    const decoy = vi.mocked(verify).mock.calls[1][0] as string;
    const real = vi.mocked(verify).mock.calls[0][0] as string;
    expect(decoy).toMatch(/^\$argon2id\$/);
    expect(decoy.split('$').slice(0, 4)).toEqual(real.split('$').slice(0, 4));
  });

  it('spends no argon2 work on a throttled attempt', async () => {
    const user = await createPublisher(t.db, { password: 'decoy-test-password' });
    // The limiter's windows are fixed to the clock: ten argon2 verifications on a busy machine may cross a window's
    // edge, which would start a new one. The clock stands still at a window's start (only Date is faked).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1_000);
    onTestFinished(() => void vi.useRealTimers());
    const { perAccountAndAddress } = SIGN_IN_LIMITS;
    for (let i = 0; i < perAccountAndAddress; i++) await signIn(user.email, 'wrong', '192.0.2.100');
    expect(verifyCalls()).toBe(perAccountAndAddress);
    const throttled = await signIn(user.email, 'decoy-test-password', '192.0.2.100');
    expect(throttled).toMatchObject({ ok: false, reason: 'throttled' });
    expect(verifyCalls()).toBe(perAccountAndAddress);
  });
});

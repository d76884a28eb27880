import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessions } from '@/db/schema';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { setRateLimitStore } from '@/lib/ratelimit';
import { SIGN_IN_LIMITS, signIn, type SignInResult } from '@/lib/services/sessions';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';

const t = useTestDatabase();
const { perEmail, perAddress, windowMs } = SIGN_IN_LIMITS;
const PASSWORD = 'throttle-test-password';

/** A clock the test moves by hand; it starts 1 s into a window (memory-store windows align to the clock). */
const WINDOW_START = Math.ceil(1_800_000_000_000 / windowMs) * windowMs;
let clock = WINDOW_START + 1_000;
beforeEach(() => {
  clock = WINDOW_START + 1_000;
  setRateLimitStore(createMemoryStore(() => clock));
});
afterEach(() => setRateLimitStore(undefined));

let addresses = 0;
const newAddress = () => `203.0.113.${++addresses}`;
const expectInvalid = (r: SignInResult) => expect(r).toEqual({ ok: false, reason: 'invalid' });
const expectThrottled = (r: SignInResult, retryAfterSeconds?: number) => {
  expect(r).toEqual({ ok: false, reason: 'throttled', retryAfterSeconds: retryAfterSeconds ?? expect.any(Number) });
  if (r.ok || r.reason !== 'throttled') return;
  expect(Number.isInteger(r.retryAfterSeconds)).toBe(true);
  expect(r.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(r.retryAfterSeconds).toBeLessThanOrEqual(windowMs / 1000);
};

describe('sign-in throttling', () => {
  it('has limits that let a person retry but stop guessing', () => {
    expect(perEmail).toBeGreaterThanOrEqual(3);
    expect(perAddress).toBeGreaterThanOrEqual(perEmail);
    expect(windowMs).toBeGreaterThanOrEqual(60_000);
  });

  it(`throttles one e-mail address after ${perEmail} attempts in the window, then even the right password`, async () => {
    const user = await createPublisher(t.db, { password: PASSWORD });
    // Different client addresses: only the e-mail's own limit can be what stops it.
    for (let i = 0; i < perEmail; i++) expectInvalid(await signIn(user.email, `guess-${i}`, newAddress()));

    // Reset is the end of the window; retryAfterSeconds counts on the store's clock, rounded up.
    expectThrottled(await signIn(user.email, 'guess-again', newAddress()), (windowMs - 1_000) / 1000);
    clock += 123_400;
    expectThrottled(await signIn(user.email, PASSWORD, newAddress()), Math.ceil((windowMs - 124_400) / 1000));
    // Same e-mail in another spelling: same counter.
    expectThrottled(await signIn(`  ${user.email.toUpperCase()} `, PASSWORD, newAddress()));
    // Nothing was opened while throttled.
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);

    // The last millisecond of the window still says "retry after 1 second", never 0.
    clock = WINDOW_START + windowMs - 1;
    expectThrottled(await signIn(user.email, PASSWORD, newAddress()), 1);

    // A new window lets the right password in again.
    clock = WINDOW_START + windowMs;
    const result = await signIn(user.email, PASSWORD, newAddress());
    expect(result.ok).toBe(true);
  });

  it('counts successful sign-ins too', async () => {
    const user = await createPublisher(t.db, { password: PASSWORD });
    for (let i = 0; i < perEmail; i++) expect((await signIn(user.email, PASSWORD, newAddress())).ok).toBe(true);
    expectThrottled(await signIn(user.email, PASSWORD, newAddress()));
  });

  it('throttles the same way for an e-mail address that has no account (no hint that it does not exist)', async () => {
    const email = `ghost-${Date.now()}@test.example`;
    for (let i = 0; i < perEmail; i++) expectInvalid(await signIn(email, `guess-${i}`, newAddress()));
    expectThrottled(await signIn(email, 'guess', newAddress()), (windowMs - 1_000) / 1000);
  });

  it(`throttles one client address after ${perAddress} attempts across different e-mail addresses`, async () => {
    const user = await createPublisher(t.db, { password: PASSWORD });
    const attacker = newAddress();
    for (let i = 0; i < perAddress; i++) {
      expectInvalid(await signIn(`sprayed-${i}-${user.id}@test.example`, 'password1', attacker));
    }
    expectThrottled(await signIn(`sprayed-last-${user.id}@test.example`, 'password1', attacker));
    // From that address even a real account with its right password waits…
    expectThrottled(await signIn(user.email, PASSWORD, attacker));
    // …but the account itself was never the target: from elsewhere it signs in at once.
    expect((await signIn(user.email, PASSWORD, newAddress())).ok).toBe(true);

    clock += windowMs;
    expect((await signIn(user.email, PASSWORD, attacker)).ok).toBe(true);
  });

  it('keeps e-mail addresses and client addresses independent of each other', async () => {
    const alice = await createPublisher(t.db, { password: PASSWORD });
    const bob = await createPublisher(t.db, { password: PASSWORD });
    const shared = newAddress();

    for (let i = 0; i < perEmail; i++) expectInvalid(await signIn(alice.email, `guess-${i}`, shared));
    expectThrottled(await signIn(alice.email, PASSWORD, shared));
    // Alice's lock does not lock Bob out, even from the same address (still under its own limit).
    expect((await signIn(bob.email, PASSWORD, shared)).ok).toBe(true);

    // Another address's limit is untouched by this one's attempts.
    const other = newAddress();
    for (let i = 0; i < perAddress - 1; i++)
      expectInvalid(await signIn(`other-${i}-${bob.id}@test.example`, 'x', other));
    expect((await signIn(bob.email, PASSWORD, other)).ok).toBe(true);
    expectThrottled(await signIn(bob.email, PASSWORD, other));
  });
});

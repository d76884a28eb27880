import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessions } from '@/db/schema';
import { CLIENT_ADDRESS_HEADER, clientAddress } from '@/lib/http/client-address';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { setRateLimitStore } from '@/lib/ratelimit';
import { signOutEverywhere, personForSession } from '@/lib/identity/sessions';
import { signIn, type SignInResult } from '@/lib/identity/sign-in';
import { SIGN_IN_LIMITS } from '@/lib/platform/limits';
import { forgedStamp, newClientAddress, stamped } from '../support/client-address';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';
import { sessionPrincipal } from '../support/keys';

const t = useTestDatabase();
const { perAccountAndAddress: perPair, perAddress, windowMs } = SIGN_IN_LIMITS;
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
    expect(perPair).toBeGreaterThanOrEqual(3);
    expect(perAddress).toBeGreaterThanOrEqual(perPair);
    expect(windowMs).toBeGreaterThanOrEqual(60_000);
  });

  it(`throttles one account from one address after ${perPair} attempts, then even the right password`, async () => {
    const user = await createPublisher(t.db, { password: PASSWORD });
    const guesser = newAddress();
    for (let i = 0; i < perPair; i++) expectInvalid(await signIn(user.email, `guess-${i}`, guesser));

    // Reset is the end of the window; retryAfterSeconds counts on the store's clock, rounded up.
    expectThrottled(await signIn(user.email, 'guess-again', guesser), (windowMs - 1_000) / 1000);
    clock += 123_400;
    expectThrottled(await signIn(user.email, PASSWORD, guesser), Math.ceil((windowMs - 124_400) / 1000));
    // Same e-mail in another spelling: same counter.
    expectThrottled(await signIn(`  ${user.email.toUpperCase()} `, PASSWORD, guesser));
    // Nothing was opened while throttled.
    expect(await t.db.select().from(sessions).where(eq(sessions.personId, user.id))).toEqual([]);

    // The last millisecond of the window still says "retry after 1 second", never 0.
    clock = WINDOW_START + windowMs - 1;
    expectThrottled(await signIn(user.email, PASSWORD, guesser), 1);

    // A new window lets the right password in again.
    clock = WINDOW_START + windowMs;
    expect((await signIn(user.email, PASSWORD, guesser)).ok).toBe(true);
  });

  it('cannot be used to lock an owner out: from another address the owner signs in at once', async () => {
    const user = await createPublisher(t.db, { password: PASSWORD });
    // Someone fails on purpose, from many addresses, as often as each allows.
    for (let a = 0; a < 3; a++) {
      const attacker = newAddress();
      for (let i = 0; i <= perPair; i++) await signIn(user.email, `wrong-${i}`, attacker);
      expectThrottled(await signIn(user.email, 'wrong', attacker));
    }
    expect((await signIn(user.email, PASSWORD, newAddress())).ok).toBe(true);
  });

  it("a successful sign-in clears that account's count from that address, and only that one", async () => {
    const user = await createPublisher(t.db, { password: PASSWORD });
    const home = newAddress();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < perPair - 1; i++) expectInvalid(await signIn(user.email, `typo-${i}`, home));
      expect((await signIn(user.email, PASSWORD, home)).ok).toBe(true);
    }
    // Successes count against the address's own limit: 3 × 10 attempts from it so far.
    expectThrottled(await signIn(user.email, PASSWORD, home));
  });

  it('throttles the same way for an e-mail address that has no account (no hint that it does not exist)', async () => {
    const email = `ghost-${Date.now()}@test.example`;
    const guesser = newAddress();
    for (let i = 0; i < perPair; i++) expectInvalid(await signIn(email, `guess-${i}`, guesser));
    expectThrottled(await signIn(email, 'guess', guesser), (windowMs - 1_000) / 1000);
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

  it('keeps accounts apart on one address', async () => {
    const alice = await createPublisher(t.db, { password: PASSWORD });
    const bob = await createPublisher(t.db, { password: PASSWORD });
    const shared = newAddress();

    for (let i = 0; i < perPair; i++) expectInvalid(await signIn(alice.email, `guess-${i}`, shared));
    expectThrottled(await signIn(alice.email, PASSWORD, shared));
    // Alice's lock does not lock Bob out, even from the same address (still under its own limit).
    expect((await signIn(bob.email, PASSWORD, shared)).ok).toBe(true);
  });
});

describe('the address a sign-in counts against (issue 18 point 2)', () => {
  // What the sign-in action passes (lib/dashboard/session.ts, actionClientAddress): the address of its request.
  const addressOf = (headers: Record<string, string>) =>
    clientAddress(new Request('http://portal.local/login', { headers }));
  /** A different forgery each time: a bare address, or one signed with the client's own key; any X-Forwarded-For. */
  const forged = (i: number) => ({
    ...(i % 2 ? { [CLIENT_ADDRESS_HEADER]: `198.51.100.${i}` } : forgedStamp(newClientAddress())),
    'x-forwarded-for': newClientAddress(),
  });

  it(`a stamp the client writes himself buys no fresh budget: ${perPair} guesses, however forged, then throttled`, async () => {
    const user = await createPublisher(t.db, { password: PASSWORD });
    for (let i = 0; i < perPair; i++) expectInvalid(await signIn(user.email, `guess-${i}`, addressOf(forged(i))));
    expectThrottled(await signIn(user.email, PASSWORD, addressOf(forged(perPair))));
    // The owner, from an address our server stamped, is not locked out by it.
    expect((await signIn(user.email, PASSWORD, addressOf(stamped(newClientAddress())))).ok).toBe(true);
  });

  it(`nor a fresh per-address budget for spraying e-mails: ${perAddress} attempts in all`, async () => {
    for (let i = 0; i < perAddress; i++) {
      expectInvalid(await signIn(`forger-${i}@test.example`, 'password1', addressOf(forged(i))));
    }
    expectThrottled(await signIn('forger-last@test.example', 'password1', addressOf(forged(perAddress))));
  });
});

describe('sessions', () => {
  it('gives every sign-in a new session, and "sign out everywhere" ends them all at once', async () => {
    const user = await createPublisher(t.db, { password: PASSWORD });
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await signIn(user.email, PASSWORD, newAddress());
      if (!result.ok) throw new Error('sign-in failed');
      tokens.push(result.token);
    }
    expect(new Set(tokens).size).toBe(3);
    for (const token of tokens) expect((await personForSession(token))?.email).toBe(user.email);
    const other = await createPublisher(t.db, { password: PASSWORD });
    const kept = await signIn(other.email, PASSWORD, newAddress());

    await signOutEverywhere(sessionPrincipal(user.id));
    for (const token of tokens) expect(await personForSession(token)).toBeNull();
    expect(kept.ok && (await personForSession(kept.token))?.email).toBe(other.email);
  });
});

import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, people } from '@/db/schema';
import { completeSignIn, confirmTwoFactor, disableTwoFactor, signIn, startTwoFactorSetup } from '@/lib/identity';
import { waitAfterFailures } from '@/lib/identity/second-factor-backoff';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';
import { sessionPrincipal } from '../support/keys';

/**
 * Issue 39, point 6: wrong second-factor codes back off per person (1, 2, 4 … minutes after five free ones, at
 * most an hour, none after 100), a right recovery code always works, the person is e-mailed as wrong codes pile
 * up, and an accepted step never works twice. Time passes by moving the last wrong code's time back.
 */
const t = useTestDatabase();
const PASSWORD = 'back-off passphrase';
const MINUTE = 60_000;
let addresses = 0;
/** A new client address for each attempt: the back-off is the person's, wherever the codes come from. */
const origin = () => ({ clientAddress: `198.51.100.${++addresses % 250}`, userAgent: 'vitest' });

beforeEach(() => setRateLimitStore(createMemoryStore()));
afterEach(() => setRateLimitStore(undefined));

/** The code an authenticator app shows for the secret, `steps` periods from now. */
const codeFor = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

/** Six digits that none of the steps a code is accepted in (now and either side) shows. */
function wrongCodeFor(secret: string): string {
  const right = new Set([-1, 0, 1, 2].map((steps) => codeFor(secret, steps)));
  let code = 100_000;
  while (right.has(String(code))) code++;
  return String(code);
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    return err as { code: string; detail: string; retryAfterSeconds?: number };
  }
  throw new Error('expected a refusal');
}

/** A publisher whose Owner turned two-factor sign-in on, and a sign-in waiting for its code. */
async function waitingForCode() {
  const account = await createPublisher(t.db, { password: PASSWORD });
  const principal = { ...sessionPrincipal(account.id), clientAddress: '203.0.113.9' };
  const setup = await startTwoFactorSetup(principal);
  const { recoveryCodes } = await confirmTwoFactor(principal, codeFor(setup.secret));
  const token = await passwordStep(account.email);
  return { account, principal, secret: setup.secret, codes: recoveryCodes, token };
}

async function passwordStep(email: string) {
  const signedIn = await signIn(email, PASSWORD, origin().clientAddress);
  if (!signedIn.ok || !signedIn.secondFactor) throw new Error('the password step failed');
  return signedIn.token;
}

async function wrongCodes(token: string, code: string, count: number) {
  for (let i = 0; i < count; i++) {
    expect(await completeSignIn(token, code, origin())).toEqual({ ok: false, reason: 'invalid' });
  }
}

async function countOf(personId: string) {
  const [row] = await t.db
    .select({ failures: people.secondFactorFailures, at: people.secondFactorFailedAt })
    .from(people)
    .where(eq(people.id, personId));
  return row;
}

/** As if `ms` had passed since the last wrong code. */
async function timePasses(personId: string, ms: number) {
  const { at } = await countOf(personId);
  await t.db
    .update(people)
    .set({ secondFactorFailedAt: new Date(at!.getTime() - ms) })
    .where(eq(people.id, personId));
}

const warnings = (email: string) =>
  t.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, email), eq(mailOutbox.kind, 'second_factor_failures')));

describe('the schedule', () => {
  it('is five free wrong codes, then 1, 2, 4, 8, 16, 32 minutes, then an hour each', () => {
    const waits = Array.from({ length: 14 }, (_, failures) => waitAfterFailures(failures) / MINUTE);
    expect(waits).toEqual([0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 60, 60, 60]);
  });
});

describe('codes from the app back off', () => {
  it('after five wrong codes the right one waits a minute, then is accepted and the count starts again', async () => {
    const { account, secret, token } = await waitingForCode();
    await wrongCodes(token, wrongCodeFor(secret), 5);
    expect((await countOf(account.id)).failures).toBe(5);

    const early = await refusal(completeSignIn(token, codeFor(secret, 1), origin()));
    expect(early.code).toBe('rate_limited');
    expect(early.detail).toMatch(/again in (1 minute|\d+ seconds), or use a recovery code now/);
    expect(early.retryAfterSeconds).toBeGreaterThan(50);
    expect(early.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Refused unread: no guess, not counted.
    expect((await countOf(account.id)).failures).toBe(5);

    await timePasses(account.id, MINUTE);
    const done = await completeSignIn(token, codeFor(secret, 1), origin());
    expect(done?.ok).toBe(true);
    expect(await countOf(account.id)).toEqual({ failures: 0, at: null });
  });

  it('each further wrong code doubles the wait', async () => {
    const { account, secret, token } = await waitingForCode();
    const wrong = wrongCodeFor(secret);
    await wrongCodes(token, wrong, 5);
    await timePasses(account.id, MINUTE);
    await wrongCodes(token, wrong, 1);
    expect((await countOf(account.id)).failures).toBe(6);

    const refused = await refusal(completeSignIn(token, codeFor(secret, 1), origin()));
    expect(refused.detail).toMatch(/again in 2 minutes/);
    await timePasses(account.id, MINUTE);
    expect((await refusal(completeSignIn(token, codeFor(secret, 1), origin()))).detail).toMatch(
      /again in (1 minute|\d+ seconds)/,
    );
    await timePasses(account.id, MINUTE);
    expect((await completeSignIn(token, codeFor(secret, 1), origin()))?.ok).toBe(true);
  });

  it('after 100 wrong codes in a row only a recovery code signs in, however long one waits', async () => {
    const { account, secret, codes, token } = await waitingForCode();
    await t.db
      .update(people)
      .set({ secondFactorFailures: 100, secondFactorFailedAt: new Date(Date.now() - 30 * 24 * 60 * MINUTE) })
      .where(eq(people.id, account.id));
    const refused = await refusal(completeSignIn(token, codeFor(secret, 1), origin()));
    expect(refused).toMatchObject({ code: 'rate_limited' });
    expect(refused.detail).toMatch(/no longer accepted.*recovery code/);
    expect(await completeSignIn(token, codes[0], origin())).toMatchObject({ ok: true });
    expect((await countOf(account.id)).failures).toBe(0);
  });

  it('guesses sent at once cannot slip past the wait: they are counted one after the other', async () => {
    const { account, secret, token } = await waitingForCode();
    const wrong = wrongCodeFor(secret);
    const answers = await Promise.allSettled(Array.from({ length: 8 }, () => completeSignIn(token, wrong, origin())));
    const refusedForTheWait = answers.filter(
      (a) => a.status === 'rejected' && (a.reason as { code?: string }).code === 'rate_limited',
    );
    expect(answers.filter((a) => a.status === 'fulfilled' && a.value?.ok === false)).toHaveLength(5);
    expect(refusedForTheWait).toHaveLength(3);
    expect((await countOf(account.id)).failures).toBe(5);
  });

  it('an accepted step is refused when replayed, and the replay counts as a wrong code', async () => {
    const { account, secret, token } = await waitingForCode();
    const other = await passwordStep(account.email);
    const code = codeFor(secret, 1);
    expect((await completeSignIn(token, code, origin()))?.ok).toBe(true);
    expect(await completeSignIn(other, code, origin())).toEqual({ ok: false, reason: 'invalid' });
    expect((await countOf(account.id)).failures).toBe(1);
  });
});

describe('recovery codes during a back-off', () => {
  it('a right one is accepted at once; a wrong one is checked and counts', async () => {
    const { account, secret, codes, token } = await waitingForCode();
    await wrongCodes(token, wrongCodeFor(secret), 5);
    // Not refused for the wait: checked, wrong, counted.
    await wrongCodes(token, 'aaaaa-bbbbb', 1);
    expect((await countOf(account.id)).failures).toBe(6);
    expect((await refusal(completeSignIn(token, codeFor(secret, 1), origin()))).code).toBe('rate_limited');

    const done = await completeSignIn(token, ` ${codes[2].toUpperCase()} `, origin());
    expect(done).toMatchObject({ ok: true });
    expect(await countOf(account.id)).toEqual({ failures: 0, at: null });
  });

  it('one address that tried too many codes is refused, but the person still signs in from elsewhere', async () => {
    const { account, codes, token } = await waitingForCode();
    const from = origin();
    for (let i = 0; i < 30; i++) {
      expect(await completeSignIn(token, `wrong-${i}`, from)).toEqual({ ok: false, reason: 'invalid' });
    }
    const refused = await refusal(completeSignIn(token, codes[0], from));
    expect(refused.detail).toMatch(/Too many codes tried from here/);
    expect((await countOf(account.id)).failures).toBe(30);
    expect(await completeSignIn(token, codes[0], origin())).toMatchObject({ ok: true });
  });
});

describe('the person is told', () => {
  it('by e-mail at the fifth wrong code in a row and at the tenth, once each', async () => {
    const { account, secret, codes, token } = await waitingForCode();
    const wrong = wrongCodeFor(secret);
    await wrongCodes(token, wrong, 4);
    expect(await warnings(account.email)).toHaveLength(0);
    await wrongCodes(token, wrong, 1);
    const [first] = await warnings(account.email);
    expect(first.subject).toBe('Wrong sign-in codes for your Publisher Portal account');
    expect(first.text).toContain(`5 wrong two-factor codes in a row were entered for your Publisher Portal account`);
    expect(first.text).toMatch(/someone knows your password/);
    expect(first.text).toMatch(/\/forgot-password/);
    expect(first.html).toContain('Choose a new password');

    // A code refused for the wait and wrong recovery codes up to the ninth: no new message.
    await refusal(completeSignIn(token, wrong, origin()));
    await wrongCodes(token, 'aaaaa-bbbbb', 4);
    expect(await warnings(account.email)).toHaveLength(1);
    await wrongCodes(token, 'aaaaa-bbbbb', 1);
    const sent = await warnings(account.email);
    expect(sent).toHaveLength(2);
    expect(sent.map((m) => m.text).find((text) => text !== first.text)).toContain('10 wrong two-factor codes');

    // A right code starts the count again; five more wrong ones are a new episode, told again.
    expect((await completeSignIn(token, codes[0], origin()))?.ok).toBe(true);
    const again = await passwordStep(account.email);
    await wrongCodes(again, wrong, 5);
    expect(await warnings(account.email)).toHaveLength(3);
  });
});

describe('the 100th wrong code', () => {
  it('is told too, with what is left: a recovery code', async () => {
    const { account, secret, codes, token } = await waitingForCode();
    await t.db
      .update(people)
      .set({ secondFactorFailures: 99, secondFactorFailedAt: new Date(Date.now() - 2 * 60 * MINUTE) })
      .where(eq(people.id, account.id));
    await wrongCodes(token, wrongCodeFor(secret), 1);
    const [told] = await warnings(account.email);
    expect(told.text).toContain('100 wrong two-factor codes in a row');
    expect(told.text).toMatch(/no longer accepted: sign in with one of your recovery codes/);
    expect((await refusal(completeSignIn(token, codeFor(secret, 1), origin()))).detail).toMatch(/no longer accepted/);
    expect(await completeSignIn(token, codes[9], origin())).toMatchObject({ ok: true });
  });
});

describe('settings share the back-off', () => {
  it('wrong codes turning it off are counted (not rolled back), and hold back the sign-in step too', async () => {
    const { account, principal, secret, token } = await waitingForCode();
    const wrong = wrongCodeFor(secret);
    for (let i = 0; i < 5; i++) expect((await refusal(disableTwoFactor(principal, wrong))).code).toBe('invalid');
    expect((await countOf(account.id)).failures).toBe(5);
    const refused = await refusal(disableTwoFactor(principal, codeFor(secret, 1)));
    expect(refused.code).toBe('rate_limited');
    expect(refused.detail).not.toMatch(/recovery code/);
    expect((await refusal(completeSignIn(token, codeFor(secret, 1), origin()))).code).toBe('rate_limited');
    await timePasses(account.id, MINUTE);
    await disableTwoFactor(principal, codeFor(secret, 1));
    expect(await countOf(account.id)).toEqual({ failures: 0, at: null });
  });

  it('confirming a new secret backs off the same way', async () => {
    const account = await createPublisher(t.db, { password: PASSWORD });
    const principal = sessionPrincipal(account.id);
    const { secret } = await startTwoFactorSetup(principal);
    for (let i = 0; i < 5; i++) {
      expect((await refusal(confirmTwoFactor(principal, wrongCodeFor(secret)))).code).toBe('invalid');
    }
    expect((await refusal(confirmTwoFactor(principal, codeFor(secret)))).code).toBe('rate_limited');
    await timePasses(account.id, MINUTE);
    expect((await confirmTwoFactor(principal, codeFor(secret))).recoveryCodes).toHaveLength(10);
  });
});

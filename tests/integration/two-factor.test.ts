import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, people, recoveryCodes } from '@/db/schema';
import {
  completeSignIn,
  confirmTwoFactor,
  disableTwoFactor,
  mustSetUpTwoFactor,
  pendingSignIn,
  resetTwoFactorAsAdmin,
  setTwoFactorRequired,
  signIn,
  startTwoFactorSetup,
  personForSession,
} from '@/lib/identity';
import { listPeople, peopleQuery } from '@/lib/accounts';
import { DEMO_IDS } from '@/db/seed-data';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { useTestDatabase } from '../support/db';
import { addMember, createPublisher } from '../support/factories';
import { memberPrincipal, sessionPrincipal } from '../support/keys';

/** Issue 22, point 5 at the service: TOTP (RFC 6238) with recovery codes, in sign-in and in settings. */
const t = useTestDatabase();
const PASSWORD = 'two factor passphrase';
let addresses = 0;
const origin = () => ({ clientAddress: `198.51.100.${++addresses}`, userAgent: 'vitest' });

beforeEach(() => setRateLimitStore(createMemoryStore()));
afterEach(() => setRateLimitStore(undefined));

/** The code an authenticator app shows for the secret, `steps` periods from now. */
const codeFor = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    return err as { code: string; detail: string };
  }
  throw new Error('expected a refusal');
};

/** A publisher whose Owner turned two-factor sign-in on; returns the secret and the recovery codes. */
async function withTwoFactor() {
  const account = await createPublisher(t.db, { password: PASSWORD });
  const principal = { ...sessionPrincipal(account.id), clientAddress: '203.0.113.1' };
  const setup = await startTwoFactorSetup(principal);
  expect(setup.uri).toMatch(/^otpauth:\/\/totp\/Publisher%20Portal:.+\?.*secret=/);
  expect(setup.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
  expect(setup.qrSvg).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  const { recoveryCodes: codes } = await confirmTwoFactor(principal, codeFor(setup.secret));
  return { account, principal, secret: setup.secret, codes };
}

describe('turning it on', () => {
  it('needs a right code from the new secret, then makes ten single-use recovery codes, stored hashed', async () => {
    const account = await createPublisher(t.db, { password: PASSWORD });
    const principal = sessionPrincipal(account.id);
    const { secret } = await startTwoFactorSetup(principal);
    expect((await failure(confirmTwoFactor(principal, '000000'))).code).toBe('invalid');
    const { recoveryCodes: codes } = await confirmTwoFactor(principal, codeFor(secret));
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const stored = await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.personId, account.id));
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(codes[0]);
    expect((await failure(startTwoFactorSetup(principal))).code).toBe('conflict');
  });
});

describe('signing in with it', () => {
  it('asks for a code after the password; the session opens nothing until then; a code works once', async () => {
    const { account, secret } = await withTwoFactor();
    const first = await signIn(account.email, PASSWORD, origin().clientAddress);
    if (!first.ok) throw new Error('password refused');
    expect(first.secondFactor).toBe(true);
    expect(await personForSession(first.token)).toBeNull();
    expect(await pendingSignIn(first.token)).toMatchObject({ personId: account.id, email: account.email });

    expect(await completeSignIn(first.token, '123456', origin())).toEqual({ ok: false, reason: 'invalid' });
    // The code of the step after the one confirmed at setup.
    const code = codeFor(secret, 1);
    const done = await completeSignIn(first.token, code, origin());
    if (!done?.ok) throw new Error('code refused');
    expect(done.token).not.toBe(first.token);
    expect((await personForSession(done.token))?.principal.userId).toBe(account.id);
    expect(await pendingSignIn(first.token)).toBeNull();

    // The same code again, in a new sign-in: refused (a code is never accepted twice).
    const second = await signIn(account.email, PASSWORD, origin().clientAddress);
    if (!second.ok) throw new Error('password refused');
    expect(await completeSignIn(second.token, code, origin())).toEqual({ ok: false, reason: 'invalid' });
  });

  it('takes each recovery code once, in any letter case and with spaces, and logs its use', async () => {
    const { account, codes } = await withTwoFactor();
    const first = await signIn(account.email, PASSWORD, origin().clientAddress);
    if (!first.ok) throw new Error('password refused');
    const typed = ` ${codes[3].toUpperCase().replace('-', ' ')} `;
    expect((await completeSignIn(first.token, typed, origin()))?.ok).toBe(true);
    const again = await signIn(account.email, PASSWORD, origin().clientAddress);
    if (!again.ok) throw new Error('password refused');
    expect(await completeSignIn(again.token, codes[3], origin())).toEqual({ ok: false, reason: 'invalid' });
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, account.id));
    expect(events.map((e) => e.kind)).toContain('two_factor.recovery_code_used');
  });

  it('backs off after five wrong codes in a row: even the right one then waits (two-factor-backoff.test.ts)', async () => {
    const { account, secret } = await withTwoFactor();
    const first = await signIn(account.email, PASSWORD, origin().clientAddress);
    if (!first.ok) throw new Error('password refused');
    const right = new Set([-1, 0, 1].map((steps) => codeFor(secret, steps)));
    const wrong = Array.from({ length: 8 }, (_, i) => String(100000 + i)).filter((c) => !right.has(c));
    for (const code of wrong.slice(0, 5)) {
      expect(await completeSignIn(first.token, code, origin())).toEqual({ ok: false, reason: 'invalid' });
    }
    const refused = await failure(completeSignIn(first.token, codeFor(secret, 1), origin()));
    expect(refused.code).toBe('rate_limited');
  });
});

describe('turning it off and resetting it', () => {
  it('turning off needs a current code; an operator’s reset is logged; both leave the password alone', async () => {
    const { account, principal, secret } = await withTwoFactor();
    expect((await failure(disableTwoFactor(principal, '000000'))).code).toBe('invalid');
    await disableTwoFactor(principal, codeFor(secret, 1));
    const [off] = await t.db.select().from(people).where(eq(people.id, account.id));
    expect(off).toMatchObject({ totpSecret: null, totpEnabledAt: null });
    expect((await signIn(account.email, PASSWORD, origin().clientAddress)) as { secondFactor?: boolean }).toMatchObject(
      {
        secondFactor: false,
      },
    );

    const again = await withTwoFactor();
    const admin = sessionPrincipal(DEMO_IDS.users.admin, 'admin');
    // The People page finds them, with their account and role, two-factor on; a publisher may not list people.
    const found = await listPeople(admin, peopleQuery.parse({ Search: again.account.email.toUpperCase() }));
    expect(found).toMatchObject({ meta: { totalRows: 1 }, data: [{ id: again.account.id, twoFactor: true }] });
    expect(found.data[0].accounts).toEqual([{ id: again.account.id, name: again.account.name, role: 'owner' }]);
    expect((await failure(listPeople(again.principal, peopleQuery.parse({})))).code).toBe('forbidden');
    expect((await failure(resetTwoFactorAsAdmin(again.principal, again.account.id))).code).toBe('forbidden');
    expect(await resetTwoFactorAsAdmin(admin, again.account.id)).toEqual({ email: again.account.email });
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, again.account.id));
    expect(event).toBeDefined();
    const reset = await t.db.select().from(auditEvents).where(eq(auditEvents.kind, 'two_factor.reset'));
    expect(reset.some((e) => e.subjectId === again.account.id && e.actorId === DEMO_IDS.users.admin)).toBe(true);
  });
});

describe('an account that requires it', () => {
  it('only an Owner requires it; members without it must set it up; it cannot be turned off meanwhile', async () => {
    const { account, principal, secret } = await withTwoFactor();
    const admin = await addMember(t.db, account.id, { role: 'admin', password: PASSWORD });
    expect((await failure(setTwoFactorRequired(memberPrincipal(account.id, admin.id, 'admin'), true))).code).toBe(
      'forbidden',
    );
    await setTwoFactorRequired(principal, true);

    const signedIn = await signIn(admin.email, PASSWORD, origin().clientAddress);
    if (!signedIn.ok) throw new Error('password refused');
    const user = await personForSession(signedIn.token);
    expect(user && mustSetUpTwoFactor(user)).toBe(true);
    const refused = await failure(disableTwoFactor(principal, codeFor(secret, 1)));
    expect(refused).toMatchObject({ code: 'conflict' });
    expect(refused.detail).toMatch(/requires two-factor sign-in/);
  });
});

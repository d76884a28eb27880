import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, mailOutbox, people } from '@/db/schema';
import { acceptInvitation, inviteMember, resendMemberInvitation } from '@/lib/accounts';
import {
  changePassword,
  completeSignIn,
  confirmTwoFactor,
  pendingSignIn,
  requestPasswordReset,
  resetLinkWorks,
  resetPassword,
  startTwoFactorSetup,
  personForSession,
} from '@/lib/identity';
import { INVITATION_LIMIT } from '@/lib/accounts/invitations';
import { sendDueMail } from '@/lib/mail';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { callApi } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';
import { invitationTokenFor } from '../support/invitation-mail';
import { adminKey, sessionPrincipal } from '../support/keys';
import { useMailSink } from '../support/mail-env';

/**
 * Issue 39, points 1 and 4: every way into a session applies the second factor, and invitation links are for
 * their owner only (e-mailed, secret in the outbox, limited per account); a new password ends reset links.
 */
const t = useTestDatabase();
const PASSWORD = 'ways in passphrase';
let addresses = 0;
const origin = () => ({ clientAddress: `192.0.2.${++addresses}`, userAgent: 'vitest' });
const newEmail = () => `way-in-${randomUUID().slice(0, 8)}@test.example`;
/** The code an authenticator app shows, `steps` periods from now (a step once accepted never is again). */
const codeFor = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

const mail = useMailSink();
beforeEach(() => setRateLimitStore(createMemoryStore()));
afterEach(() => setRateLimitStore(undefined));

const signInsOf = (accountId: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.accountId, accountId), eq(auditEvents.kind, 'sign_in.succeeded')))
    .orderBy(auditEvents.id);

/** A publisher whose Owner turned two-factor sign-in on; the secret for computing codes. */
async function ownerWithTwoFactor() {
  const account = await createPublisher(t.db, { password: PASSWORD });
  const principal = { ...sessionPrincipal(account.id), clientAddress: '192.0.2.250' };
  const { secret } = await startTwoFactorSetup(principal);
  await confirmTwoFactor(principal, codeFor(secret));
  return { account, secret };
}

/** An invitation from a fresh account's Owner to `email`, and its token as the e-mail carries it. */
async function invitationTo(email: string, role: 'admin' | 'viewer' = 'admin') {
  const inviting = await createPublisher(t.db, { password: PASSWORD });
  const sent = await inviteMember(sessionPrincipal(inviting.id), { email, role });
  return { inviting, sent, token: await invitationTokenFor(email) };
}

describe('an invitation is a way in like any other', () => {
  it('a person with TOTP who accepts with the password alone reaches nothing until the code', async () => {
    const { account, secret } = await ownerWithTwoFactor();
    const { inviting, token } = await invitationTo(account.email);

    const session = await acceptInvitation(token, { password: PASSWORD }, origin());
    expect(session).toMatchObject({ accountId: inviting.id, secondFactor: true });
    // The session opens no account, neither the new one nor their own, and no sign-in is recorded yet.
    expect(await personForSession(session!.token, inviting.id)).toBeNull();
    expect(await personForSession(session!.token, account.id)).toBeNull();
    expect(await signInsOf(account.id)).toHaveLength(0);
    expect(await pendingSignIn(session!.token)).toMatchObject({ personId: account.id });

    const signedIn = await completeSignIn(session!.token, codeFor(secret, 1), origin());
    expect(signedIn).toMatchObject({ ok: true });
    if (!signedIn?.ok) throw new Error('expected a signed-in session');
    expect((await personForSession(signedIn.token, inviting.id))?.principal).toMatchObject({
      userId: inviting.id,
      memberRole: 'admin',
    });
    // Recorded in the person's own account's log as a sign-in with the second factor.
    expect((await signInsOf(account.id)).map((e) => e.details)).toEqual([{ secondFactor: true }]);
    // The waiting session is gone: the same code (or any other) cannot open a second one.
    expect(await completeSignIn(session!.token, codeFor(secret, -1), origin())).toBeNull();
  });

  it('someone without a second factor who joins is signed in, and the sign-in is in their own account’s log', async () => {
    const existing = await createPublisher(t.db, { password: PASSWORD });
    const { inviting, token } = await invitationTo(existing.email);
    const session = await acceptInvitation(token, { password: PASSWORD }, origin());
    expect(session).toMatchObject({ accountId: inviting.id, secondFactor: false });
    expect((await personForSession(session!.token, inviting.id))?.principal.userId).toBe(inviting.id);
    const [signIn] = await signInsOf(existing.id);
    expect(signIn).toMatchObject({ actorId: existing.id, subjectId: existing.id, details: { via: 'invitation' } });
  });
});

describe('invitation links are for their owner', () => {
  it('go only into the e-mail: the inviter gets no link, and the outbox keeps none once sent', async () => {
    const email = newEmail();
    const { inviting, sent, token } = await invitationTo(email, 'viewer');
    expect(Object.keys(sent).sort()).toEqual(['email', 'id']);
    expect(JSON.stringify(sent)).not.toContain(token);
    const again = await resendMemberInvitation(sessionPrincipal(inviting.id), sent.id);
    expect(JSON.stringify(again)).not.toMatch(/invitation\//);

    await sendDueMail();
    const delivered = mail.sink.to(email);
    expect(delivered.at(-1)?.links.some((link) => link.includes('/invitation/'))).toBe(true);
    const stored = await t.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, email), eq(mailOutbox.kind, 'invitation')))
      .orderBy(desc(mailOutbox.createdAt));
    expect(stored.length).toBe(2);
    for (const mail of stored) {
      expect(mail).toMatchObject({ secret: true, text: '', html: '' });
      expect(mail.sentAt).not.toBeNull();
    }
  });

  it(`are limited to ${INVITATION_LIMIT.perAccount} an hour per account: the API answers 429 with Retry-After`, async () => {
    const admin = (await adminKey()).raw;
    const created = await callApi('POST', '/api/v1/admin/publishers', {
      key: admin,
      body: { email: newEmail(), name: 'Spam Test' },
    });
    expect(created.status, created.text).toBe(200);
    const resend = () => callApi('POST', `/api/v1/admin/publishers/${created.json.id}/invitation`, { key: admin });
    for (let i = 1; i < INVITATION_LIMIT.perAccount; i++) expect((await resend()).status).toBe(200);
    const refused = await resend();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(INVITATION_LIMIT.windowMs / 1000);
    expect(refused.json.detail).toMatch(/20 invitations within the hour/);
    // Another account's invitations are counted apart.
    expect((await invitationTo(newEmail())).token).toMatch(/^[\w-]{40,}$/);
  });
});

describe('a new password ends every reset link', () => {
  const resetToken = async (email: string) => {
    expect(await requestPasswordReset(email, origin().clientAddress)).toEqual({ ok: true });
    const [mail] = await t.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, email), eq(mailOutbox.kind, 'password_reset')))
      .orderBy(desc(mailOutbox.createdAt));
    return /\/reset-password\/([\w-]{20,})/.exec(mail.text)![1];
  };

  it('a password change voids an outstanding reset link', async () => {
    const account = await createPublisher(t.db, { password: PASSWORD });
    const token = await resetToken(account.email);
    expect(await resetLinkWorks(token)).toBe(true);
    const principal = { ...sessionPrincipal(account.id), clientAddress: '192.0.2.200' };
    await changePassword(principal, { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' }, '');
    expect(await resetLinkWorks(token)).toBe(false);
  });

  it('a reset also clears the second factor’s back-off: the old password’s holder typed those codes', async () => {
    const account = await createPublisher(t.db, { password: PASSWORD });
    await t.db
      .update(people)
      .set({ secondFactorFailures: 7, secondFactorFailedAt: new Date() })
      .where(eq(people.id, account.id));
    await resetPassword(await resetToken(account.email), 'a reset passphrase', '192.0.2.201');
    const [person] = await t.db.select().from(people).where(eq(people.id, account.id));
    expect(person).toMatchObject({ secondFactorFailures: 0, secondFactorFailedAt: null });
  });
});

import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountTokens, auditEvents, mailOutbox, users } from '@/db/schema';
import { requestPasswordReset, resetLinkWorks, resetPassword } from '@/lib/identity';
import { sendPasswordResetAsOperator } from '@/lib/accounts';
import { RESET_REQUEST_LIMITS } from '@/lib/identity/password-reset';
import { personForSession } from '@/lib/identity/sessions';
import { signIn } from '@/lib/identity/sign-in';
import { sendDueMail } from '@/lib/mail';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { AppError } from '@/lib/shared/errors';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';
import { sessionPrincipal } from '../support/keys';
import { useMailSink } from '../support/mail-env';

const t = useTestDatabase();
const PUBLIC_URL = 'https://portal.example.com';
const OLD = 'the old password of this test';
const NEW = 'a brand new password for this test';
const smtp = useMailSink(PUBLIC_URL);
let addresses = 0;
const newAddress = () => `192.0.2.${++addresses}`;

beforeEach(() => setRateLimitStore(createMemoryStore()));
afterEach(() => setRateLimitStore(undefined));

const outboxTo = (email: string) =>
  t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(desc(mailOutbox.createdAt));
const eventsOf = (userId: string) =>
  t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, userId)).orderBy(auditEvents.id);

/** Asks for a link and reads it from the message the SMTP sink received: the whole way a person goes. */
async function linkFor(email: string): Promise<string> {
  expect(await requestPasswordReset(email, newAddress())).toEqual({ ok: true });
  await sendDueMail();
  const links = smtp.sink.to(email).at(-1)?.links ?? [];
  expect(links).toHaveLength(1); // the reset link, and no other
  return links[0];
}

const tokenOf = (link: string) => new URL(link).pathname.split('/').pop()!;

async function expectAppError(promise: Promise<unknown>, code: string, parameter?: string) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  if (parameter) expect((err as AppError).errors?.[0]?.parameter).toBe(parameter);
}

describe('forgot password', () => {
  it('e-mails an active account a single-use link on PUBLIC_URL, secret in the outbox, and records the request', async () => {
    const user = await createPublisher(t.db, { password: OLD });
    const address = newAddress();
    expect(await requestPasswordReset(`  ${user.email.toUpperCase()} `, address)).toEqual({ ok: true });

    const [queued] = await outboxTo(user.email);
    expect(queued).toMatchObject({
      kind: 'password_reset',
      secret: true,
      subject: 'Reset your Publisher Portal password',
    });
    await sendDueMail();
    const [mail] = smtp.sink.to(user.email);
    expect(mail.links[0]).toMatch(new RegExp(`^${PUBLIC_URL}/reset-password/[A-Za-z0-9_-]{43}$`));
    expect(mail.html).toContain(`href="${mail.links[0]}"`);
    expect(mail.text).toContain('60 minutes');
    // Sent: the link is no longer in the database, and only its hash ever was.
    expect((await outboxTo(user.email))[0].text).toBe('');
    const tokens = await t.db.select().from(accountTokens).where(eq(accountTokens.personId, user.id));
    expect(tokens).toHaveLength(1);
    expect(tokens[0].tokenHash).not.toContain(tokenOf(mail.links[0]));
    expect(await resetLinkWorks(tokenOf(mail.links[0]))).toBe(true);

    const [event] = await eventsOf(user.id);
    expect(event).toMatchObject({
      kind: 'password.reset_requested',
      actorKind: 'user',
      actorId: user.id,
      actorLabel: user.email,
      accountId: user.id,
      clientAddress: address,
    });
  });

  it('answers the same for an unknown address, an invited and a deactivated account, and sends them nothing', async () => {
    const invited = await createPublisher(t.db, { status: 'invited' });
    const deactivated = await createPublisher(t.db, { password: OLD, status: 'deactivated' });
    const unknown = `nobody-${randomUUID()}@test.example`;
    for (const email of [unknown, invited.email, deactivated.email]) {
      expect(await requestPasswordReset(email, newAddress())).toEqual({ ok: true });
      expect(await outboxTo(email)).toEqual([]);
    }
    expect(await t.db.select().from(accountTokens).where(eq(accountTokens.personId, deactivated.id))).toEqual([]);
    expect(await eventsOf(invited.id)).toEqual([]);
  });

  it('voids the earlier link when a new one is asked for', async () => {
    const user = await createPublisher(t.db, { password: OLD });
    const first = tokenOf(await linkFor(user.email));
    const second = tokenOf(await linkFor(user.email));
    expect(await resetLinkWorks(first)).toBe(false);
    await expectAppError(resetPassword(first, NEW, newAddress()), 'not_found');
    expect(await resetLinkWorks(second)).toBe(true);
  });

  it('throttles per address asked for and per client address, the same whether or not an account exists', async () => {
    const { perAccountAndAddress, perAccount } = RESET_REQUEST_LIMITS;
    const user = await createPublisher(t.db, { password: OLD });
    const unknown = `nobody-${randomUUID()}@test.example`;
    for (const email of [user.email, unknown]) {
      const from = newAddress();
      for (let i = 0; i < perAccountAndAddress; i++) expect((await requestPasswordReset(email, from)).ok).toBe(true);
      const refused = await requestPasswordReset(email, from);
      expect(refused).toEqual({ ok: false, retryAfterSeconds: expect.any(Number) });
    }
    // From elsewhere, up to the address's own limit in all (the refused request counted too): no mailbox is
    // flooded from many places.
    for (let i = perAccountAndAddress + 1; i < perAccount; i++) {
      expect((await requestPasswordReset(user.email, newAddress())).ok).toBe(true);
    }
    expect((await requestPasswordReset(user.email, newAddress())).ok).toBe(false);
    expect(await outboxTo(user.email)).toHaveLength(perAccount - 1);
    // Never a lockout: the owner still signs in with the password.
    expect((await signIn(user.email, OLD, newAddress())).ok).toBe(true);
  });
});

describe('reset password', () => {
  it('sets the password once, ends every session, sends a notice and records it', async () => {
    const user = await createPublisher(t.db, { password: OLD });
    const sessions = await Promise.all([signIn(user.email, OLD, newAddress()), signIn(user.email, OLD, newAddress())]);
    const token = tokenOf(await linkFor(user.email));
    const address = newAddress();

    expect(await resetPassword(token, NEW, address)).toEqual({ email: user.email });
    for (const s of sessions) expect(s.ok && (await personForSession(s.token))).toBeNull();
    expect((await signIn(user.email, OLD, newAddress())).ok).toBe(false);
    expect((await signIn(user.email, NEW, newAddress())).ok).toBe(true);

    const [notice] = await outboxTo(user.email);
    expect(notice).toMatchObject({
      kind: 'password_changed',
      secret: false,
      subject: 'Your Publisher Portal password was reset',
    });
    expect(notice.text).toContain(`${PUBLIC_URL}/forgot-password`);
    const reset = (await eventsOf(user.id)).find((e) => e.kind === 'password.reset');
    expect(reset).toMatchObject({ actorId: user.id, accountId: user.id, clientAddress: address });

    // Single use.
    expect(await resetLinkWorks(token)).toBe(false);
    await expectAppError(resetPassword(token, 'yet another new password', newAddress()), 'not_found');
  });

  it('refuses a weak password without spending the link', async () => {
    const user = await createPublisher(t.db, { password: OLD });
    const token = tokenOf(await linkFor(user.email));
    await expectAppError(resetPassword(token, 'short', newAddress()), 'invalid', 'password');
    await expectAppError(resetPassword(token, 'qwerty123456', newAddress()), 'invalid', 'password');
    expect(await resetLinkWorks(token)).toBe(true);
  });

  it('refuses an expired link, an unknown one and one of a since-deactivated account', async () => {
    const user = await createPublisher(t.db, { password: OLD });
    const token = tokenOf(await linkFor(user.email));
    await t.db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(accountTokens.personId, user.id), eq(accountTokens.purpose, 'password_reset')));
    expect(await resetLinkWorks(token)).toBe(false);
    await expectAppError(resetPassword(token, NEW, newAddress()), 'not_found');
    await expectAppError(resetPassword('not-a-token', NEW, newAddress()), 'not_found');
    await expectAppError(resetPassword('', NEW, newAddress()), 'not_found');

    const other = await createPublisher(t.db, { password: OLD });
    const otherToken = tokenOf(await linkFor(other.email));
    await t.db.update(users).set({ status: 'deactivated' }).where(eq(users.id, other.id));
    await expectAppError(resetPassword(otherToken, NEW, newAddress()), 'not_found');
  });
});

describe('an operator sends a reset link', () => {
  it('queues the link to the publisher, never shows it, and records the operator as the actor', async () => {
    const admin = await createPublisher(t.db, { role: 'admin' });
    const user = await createPublisher(t.db, { password: OLD });
    const result = await sendPasswordResetAsOperator(sessionPrincipal(admin.id, 'admin'), user.id);
    expect(result).toEqual({ sentTo: user.email });
    const [queued] = await outboxTo(user.email);
    expect(queued).toMatchObject({ kind: 'password_reset', secret: true });
    expect(queued.text).toContain('An administrator');
    expect(await eventsOf(user.id)).toEqual([
      expect.objectContaining({ kind: 'password.reset_requested', actorKind: 'admin', actorId: admin.id }),
    ]);
  });

  it('is for operators only, 404 for an unknown publisher, 409 for an invited or deactivated one', async () => {
    const admin = sessionPrincipal((await createPublisher(t.db, { role: 'admin' })).id, 'admin');
    const user = await createPublisher(t.db, { password: OLD });
    await expectAppError(sendPasswordResetAsOperator(sessionPrincipal(user.id), user.id), 'forbidden');
    await expectAppError(sendPasswordResetAsOperator({ ...admin, viewedBy: admin.userId }, user.id), 'forbidden');
    await expectAppError(sendPasswordResetAsOperator(admin, randomUUID()), 'not_found');
    await expectAppError(sendPasswordResetAsOperator(admin, 'not-a-uuid'), 'not_found');
    for (const status of ['invited', 'deactivated'] as const) {
      const other = await createPublisher(t.db, { status });
      await expectAppError(sendPasswordResetAsOperator(admin, other.id), 'conflict');
      expect(await outboxTo(other.email)).toEqual([]);
    }
  });
});

import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, invitations, mailOutbox, memberships, people, users } from '@/db/schema';
import { DEMO_IDS } from '@/db/seed-data';
import {
  acceptInvitation,
  createPublisher as createPublisherAccount,
  deactivatePublisher,
  invitationFor,
  resendInvitation,
} from '@/lib/accounts';
import { signIn, personForSession } from '@/lib/identity';
import { getDb } from '@/db/client';
import { sendInvitation } from '@/lib/accounts/invitations';
import { useTestDatabase } from '../support/db';
import { invitationTokenFor } from '../support/invitation-mail';
import { createPublisher } from '../support/factories';
import { sessionPrincipal } from '../support/keys';

const t = useTestDatabase();
const admin = () => ({ ...sessionPrincipal(DEMO_IDS.users.admin, 'admin'), clientAddress: '198.51.100.7' });
const PASSWORD = 'a fine long passphrase';

async function invite() {
  const email = `invited-${randomUUID().slice(0, 8)}@test.example`;
  const { publisher } = await createPublisherAccount(admin(), { email, name: 'Grace Hopper' });
  return { publisher, token: await invitationTokenFor(email), email };
}

/** A second Owner invited to a new account, at an e-mail of someone's choosing. */
async function inviteOwnerAt(email: string) {
  const { publisher } = await invite();
  const account = { id: publisher.id, name: publisher.name, role: 'publisher' as const };
  const db = await getDb();
  await db.transaction((tx) => sendInvitation(tx, admin(), { account, email, role: 'owner' }));
  return { publisher, token: await invitationTokenFor(email) };
}
const origin = (clientAddress: string) => ({ clientAddress, userAgent: 'vitest' });
const eventsOf = (accountId: string) =>
  t.db.select().from(auditEvents).where(eq(auditEvents.accountId, accountId)).orderBy(auditEvents.id);

describe('invitations', () => {
  it('the link shows which account and role, makes its Owner with a password, signs in and is void afterwards', async () => {
    const { publisher, token, email } = await invite();
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, email));
    expect(mail.text).toContain(token);
    expect(await invitationFor(token)).toEqual({ accountName: 'Grace Hopper', email, role: 'owner', hasSignIn: false });

    const session = await acceptInvitation(token, { password: PASSWORD, name: 'Grace' }, origin('203.0.113.9'));
    expect(session).toMatchObject({ accountId: publisher.id });
    const user = await personForSession(session!.token);
    expect(user?.principal).toMatchObject({ userId: publisher.id, memberRole: 'owner' });
    const [row] = await t.db.select().from(users).where(eq(users.id, publisher.id));
    expect(row.status).toBe('active');
    const [person] = await t.db.select().from(people).where(eq(people.email, email));
    expect(person).toMatchObject({ name: 'Grace', id: user?.personId });
    expect(person.passwordHash).toMatch(/^\$argon2id\$/);
    expect(person.lastSignInAt).not.toBeNull();

    const events = await eventsOf(publisher.id);
    expect(events.map((e) => e.kind)).toEqual([
      'account.created',
      'invitation.sent',
      'invitation.accepted',
      'sign_in.succeeded',
    ]);
    expect(events[3]).toMatchObject({ actorId: person.id, details: { via: 'invitation' } });
    expect(events[0]).toMatchObject({
      actorKind: 'admin',
      actorId: DEMO_IDS.users.admin,
      clientAddress: '198.51.100.7',
    });
    expect(events[2]).toMatchObject({ actorKind: 'user', actorId: person.id, clientAddress: '203.0.113.9' });
    expect(JSON.stringify(events)).not.toContain(token);

    expect(await invitationFor(token)).toBeNull();
    expect(await acceptInvitation(token, { password: PASSWORD }, origin('203.0.113.9'))).toBeNull();
    expect((await signIn(email, PASSWORD, '203.0.113.10')).ok).toBe(true);
  });

  it('someone who signs in here already joins with their own password, throttled like signing in', async () => {
    const existing = await createPublisher(t.db, { password: PASSWORD });
    const { publisher, token } = await inviteOwnerAt(existing.email);
    expect(await invitationFor(token)).toMatchObject({ hasSignIn: true });
    await expect(
      acceptInvitation(token, { password: 'not the password' }, origin('203.0.113.30')),
    ).rejects.toMatchObject({
      code: 'invalid',
      errors: [{ parameter: 'password' }],
    });
    const session = await acceptInvitation(token, { password: PASSWORD }, origin('203.0.113.30'));
    expect(session?.accountId).toBe(publisher.id);
    const joined = await t.db.select().from(memberships).where(eq(memberships.personId, existing.id));
    expect(joined.map((m) => [m.accountId, m.role]).sort()).toEqual(
      [
        [existing.id, 'owner'],
        [publisher.id, 'owner'],
      ].sort(),
    );
    // Both accounts are theirs; the session acts for whichever the URL names.
    const there = await personForSession(session!.token, publisher.id);
    expect(there?.principal.userId).toBe(publisher.id);
    expect(there?.memberships.map((m) => m.accountId).sort()).toEqual([existing.id, publisher.id].sort());
    expect((await personForSession(session!.token, existing.id))?.principal.userId).toBe(existing.id);
  });

  it('refuses a weak password on the password field and keeps the link valid', async () => {
    const { token } = await invite();
    await expect(acceptInvitation(token, { password: 'short' }, origin('203.0.113.11'))).rejects.toMatchObject({
      code: 'invalid',
      errors: [{ parameter: 'password' }],
    });
    expect(await invitationFor(token)).not.toBeNull();
  });

  it('a superseded, an expired, a deactivated account’s and an unknown link open nothing', async () => {
    const superseded = await invite();
    await resendInvitation(admin(), superseded.publisher.id);
    expect(await invitationFor(superseded.token)).toBeNull();
    expect(await acceptInvitation(superseded.token, { password: PASSWORD }, origin('203.0.113.12'))).toBeNull();

    const expired = await invite();
    await t.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.accountId, expired.publisher.id));
    expect(await invitationFor(expired.token)).toBeNull();
    expect(await acceptInvitation(expired.token, { password: PASSWORD }, origin('203.0.113.13'))).toBeNull();

    const shutOut = await invite();
    await deactivatePublisher(admin(), shutOut.publisher.id);
    expect(await invitationFor(shutOut.token)).toBeNull();
    expect(await acceptInvitation(shutOut.token, { password: PASSWORD }, origin('203.0.113.14'))).toBeNull();
    const [row] = await t.db.select().from(users).where(eq(users.id, shutOut.publisher.id));
    expect(row).toMatchObject({ status: 'deactivated' });
    expect(await t.db.select().from(memberships).where(eq(memberships.accountId, row.id))).toEqual([]);

    expect(await invitationFor('not-a-token')).toBeNull();
    expect(await invitationFor('')).toBeNull();
  });
});

describe('sign-in and account status', () => {
  it('only an active account signs in; invited and deactivated get the wrong-password answer', async () => {
    const invited = await createPublisher(t.db, { status: 'invited', password: PASSWORD });
    const deactivated = await createPublisher(t.db, { status: 'deactivated', password: PASSWORD });
    for (const { email } of [invited, deactivated]) {
      expect(await signIn(email, PASSWORD, '203.0.113.20')).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('logs successes and failures with the account, the address and the e-mail tried, never the password', async () => {
    const user = await createPublisher(t.db, { password: PASSWORD });
    expect((await signIn(user.email, 'wrong password!', '203.0.113.21')).ok).toBe(false);
    const ok = await signIn(user.email.toUpperCase(), PASSWORD, '203.0.113.22');
    expect(ok.ok).toBe(true);
    const events = await eventsOf(user.id);
    expect(events.map((e) => [e.kind, e.clientAddress])).toEqual([
      ['sign_in.failed', '203.0.113.21'],
      ['sign_in.succeeded', '203.0.113.22'],
    ]);
    expect(events[0].details).toEqual({ email: user.email });
    expect(events[1]).toMatchObject({ actorKind: 'user', actorId: user.id, subjectId: user.id });
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
    expect(JSON.stringify(events)).not.toContain('wrong password!');
    const [row] = await t.db.select().from(people).where(eq(people.id, user.id));
    expect(row.lastSignInAt).not.toBeNull();

    const nobody = `nobody-${randomUUID()}@test.example`;
    await signIn(nobody, PASSWORD, '203.0.113.23');
    const [unknown] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.kind, 'sign_in.failed'), eq(auditEvents.actorLabel, nobody)))
      .orderBy(desc(auditEvents.id));
    expect(unknown).toMatchObject({ accountId: null, subjectId: null, clientAddress: '203.0.113.23' });
  });

  it('a session stops working when its account is not active, even before it is deleted', async () => {
    const user = await createPublisher(t.db, { password: PASSWORD });
    const session = await signIn(user.email, PASSWORD, '203.0.113.24');
    if (!session.ok) throw new Error('sign-in failed');
    expect(await personForSession(session.token)).not.toBeNull();
    await t.db.update(users).set({ status: 'deactivated' }).where(eq(users.id, user.id));
    expect(await personForSession(session.token)).toBeNull();
  });
});

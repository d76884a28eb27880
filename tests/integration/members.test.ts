import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys, auditEvents, invitations, memberships } from '@/db/schema';
import {
  acceptInvitation,
  changeMemberRole,
  invitationFor,
  inviteMember,
  leaveAccount,
  listMembers,
  removeMember,
  resendMemberInvitation,
  revokeInvitation,
} from '@/lib/accounts';
import { signIn, personForSession } from '@/lib/identity';
import { createApiKey } from '@/lib/keys';
import { getRows } from '@/lib/reports';
import { useTestDatabase } from '../support/db';
import { invitationTokenFor } from '../support/invitation-mail';
import { addMember, createPublisher, createSite } from '../support/factories';
import { memberPrincipal, sessionPrincipal } from '../support/keys';

/** Issue 22, points 1 to 3 at the service: members, roles, invitations, and what each role may do. */
const t = useTestDatabase();
const PASSWORD = 'a member’s long passphrase';
const origin = { clientAddress: '203.0.113.50', userAgent: 'vitest' };
const newEmail = () => `invitee-${randomUUID().slice(0, 8)}@test.example`;
/** An invitation as sent, with the token of its e-mailed link (the link travels by e-mail only). */
const withToken = async (sending: Promise<{ id: string; email: string }>) => {
  const sent = await sending;
  return { ...sent, token: await invitationTokenFor(sent.email) };
};

/** An account with its Owner (same id) and one member of each other role. */
async function team() {
  const account = await createPublisher(t.db, { password: PASSWORD });
  const [admin, finance, viewer] = await Promise.all(
    (['admin', 'finance', 'viewer'] as const).map((role) => addMember(t.db, account.id, { role, password: PASSWORD })),
  );
  return {
    account,
    owner: sessionPrincipal(account.id),
    admin: memberPrincipal(account.id, admin.id, 'admin'),
    finance: memberPrincipal(account.id, finance.id, 'finance'),
    viewer: memberPrincipal(account.id, viewer.id, 'viewer'),
    people: { admin, finance, viewer },
  };
}

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    return err as { code: string; detail: string };
  }
  throw new Error('expected a refusal');
};

describe('inviting', () => {
  it('an Owner invites a Viewer limited to one site, who joins with a new password and reads only that site', async () => {
    const { account, owner } = await team();
    const [siteA] = await Promise.all([createSite(t.db, account.id), createSite(t.db, account.id)]);
    const email = newEmail();
    const { token } = await withToken(inviteMember(owner, { email, role: 'viewer', siteIds: [siteA.id] }));
    expect(await invitationFor(token)).toMatchObject({ email, role: 'viewer', hasSignIn: false });
    const listed = await listMembers(owner);
    expect(listed.invitations).toEqual([expect.objectContaining({ email, role: 'viewer', siteIds: [siteA.id] })]);

    const session = await acceptInvitation(token, { password: PASSWORD, name: 'Vera' }, origin);
    const user = await personForSession(session!.token);
    expect(user?.principal).toMatchObject({ userId: account.id, memberRole: 'viewer', siteScope: [siteA.id] });
    expect((await listMembers(owner)).invitations).toEqual([]);
    expect((await listMembers(owner)).members.map((m) => m.role)).toEqual([
      'owner',
      'admin',
      'finance',
      'viewer',
      'viewer',
    ]);
    // A limited Viewer reads that site only, and the account-wide rows are refused as for a site-scoped key.
    expect((await failure(getRows(user!.principal, {} as never))).code).toBe('forbidden');
  });

  it('an Admin invites every role but Owner; Finance and Viewers invite nobody', async () => {
    const { admin, finance, viewer } = await team();
    for (const role of ['admin', 'finance', 'viewer'] as const) {
      expect((await withToken(inviteMember(admin, { email: newEmail(), role }))).token).toMatch(/^[\w-]{40,}$/);
    }
    expect(await failure(inviteMember(admin, { email: newEmail(), role: 'owner' }))).toMatchObject({
      code: 'forbidden',
    });
    for (const who of [finance, viewer]) {
      const refused = await failure(inviteMember(who, { email: newEmail(), role: 'viewer' }));
      expect(refused.code).toBe('forbidden');
      expect(refused.detail).toMatch(/needs the Owner or Admin role/);
    }
  });

  it('refuses a member’s e-mail (409) and another account’s sites (400); an open invitation is replaced', async () => {
    const { account, owner, people } = await team();
    expect((await failure(inviteMember(owner, { email: people.admin.email, role: 'viewer' }))).code).toBe('conflict');
    const elsewhere = await createSite(t.db, (await createPublisher(t.db)).id);
    const refused = await failure(inviteMember(owner, { email: newEmail(), role: 'viewer', siteIds: [elsewhere.id] }));
    expect(refused.code).toBe('invalid');

    const email = newEmail();
    const first = await withToken(inviteMember(owner, { email, role: 'viewer' }));
    const second = await withToken(inviteMember(owner, { email, role: 'finance' }));
    expect(second.id).toBe(first.id);
    expect(await invitationFor(first.token)).toBeNull();
    expect(await invitationFor(second.token)).toMatchObject({ role: 'finance' });
    const open = await t.db.select().from(invitations).where(eq(invitations.accountId, account.id));
    expect(open.filter((i) => i.email === email)).toHaveLength(1);
  });

  it('resend gives a new link, revoke voids it, both logged', async () => {
    const { account, owner } = await team();
    const sent = await withToken(inviteMember(owner, { email: newEmail(), role: 'viewer' }));
    const again = await withToken(resendMemberInvitation(owner, sent.id));
    expect(await invitationFor(sent.token)).toBeNull();
    await revokeInvitation(owner, sent.id);
    expect(await invitationFor(again.token)).toBeNull();
    expect(await acceptInvitation(again.token, { password: PASSWORD }, origin)).toBeNull();
    expect((await failure(revokeInvitation(owner, sent.id))).code).toBe('not_found');
    const kinds = await t.db
      .select({ kind: auditEvents.kind })
      .from(auditEvents)
      .where(and(eq(auditEvents.accountId, account.id), eq(auditEvents.subjectId, sent.id)))
      .orderBy(auditEvents.id); // without it, PostgreSQL may return them in another order (CI did once)
    expect(kinds.map((k) => k.kind)).toEqual(['invitation.sent', 'invitation.sent', 'invitation.revoked']);
  });
});

describe('changing and removing', () => {
  it('the last Owner can be neither demoted, removed, nor leave; with a second Owner all three work', async () => {
    const { account, owner, admin, people } = await team();
    const demote = await failure(changeMemberRole(owner, account.id, { role: 'admin' }));
    expect(demote).toMatchObject({ code: 'conflict' });
    expect(demote.detail).toMatch(/at least one Owner/);
    expect((await failure(leaveAccount(owner))).code).toBe('conflict');
    // An Admin touches no Owner and makes none.
    expect((await failure(removeMember(admin, account.id))).code).toBe('forbidden');
    expect((await failure(changeMemberRole(admin, people.finance.id, { role: 'owner' }))).code).toBe('forbidden');

    await changeMemberRole(owner, people.admin.id, { role: 'owner' });
    await changeMemberRole(owner, account.id, { role: 'viewer' });
    const roles = (await listMembers(memberPrincipal(account.id, people.admin.id, 'owner'))).members;
    expect(roles.find((m) => m.personId === account.id)?.role).toBe('viewer');
  });

  it('removing a member ends their access at once; a removed person with no account left loses every session', async () => {
    const { account, owner, people } = await team();
    const signedIn = await signIn(people.finance.email, PASSWORD, '203.0.113.51');
    if (!signedIn.ok) throw new Error('sign-in failed');
    expect((await personForSession(signedIn.token))?.principal.memberRole).toBe('finance');

    await removeMember(owner, people.finance.id);
    expect(await personForSession(signedIn.token)).toBeNull();
    expect(await t.db.select().from(memberships).where(eq(memberships.personId, people.finance.id))).toEqual([]);
    // Not a member any more: nothing to remove.
    expect((await failure(removeMember(owner, people.finance.id))).code).toBe('not_found');
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.accountId, account.id), eq(auditEvents.kind, 'member.removed')));
    expect(event).toMatchObject({ actorId: account.id, subjectId: people.finance.id });
    expect(event.details).toMatchObject({ role: 'finance', sessionsEnded: 1 });
  });

  it('a member of two accounts who leaves one keeps acting for the other', async () => {
    const { account, people } = await team();
    const other = await createPublisher(t.db);
    await t.db.insert(memberships).values({ accountId: other.id, personId: people.viewer.id, role: 'admin' });
    const signedIn = await signIn(people.viewer.email, PASSWORD, '203.0.113.52');
    if (!signedIn.ok) throw new Error('sign-in failed');

    await leaveAccount(memberPrincipal(account.id, people.viewer.id, 'viewer'));
    const after = await personForSession(signedIn.token, account.id);
    expect(after?.principal).toMatchObject({ userId: other.id, memberRole: 'admin' });
    expect(after?.memberships.map((m) => m.accountId)).toEqual([other.id]);
  });
});

describe('what each role may do with keys', () => {
  it('Owners and Admins manage keys, recorded as theirs; Finance and Viewers may not', async () => {
    const { admin, finance, viewer, people } = await team();
    const created = await createApiKey(admin, { label: 'by the admin' });
    const [row] = await t.db.select({ by: apiKeys.createdBy }).from(apiKeys).where(eq(apiKeys.id, created.key.id));
    expect(row.by).toBe(people.admin.id);
    expect(created.key.label).toBe('by the admin');
    for (const who of [finance, viewer]) {
      expect((await failure(createApiKey(who, { label: 'no' }))).detail).toMatch(/needs the Owner or Admin role/);
    }
  });
});

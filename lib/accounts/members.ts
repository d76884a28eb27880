/**
 * The people of an account: who is a member with which role, who is invited, and the changes Owners and
 * Admins make (lib/access/roles.ts says who may). An account always keeps at least one Owner. Every change
 * is in the activity log, written in the same transaction.
 */
import { and, asc, count, eq, isNull, ne, sql } from 'drizzle-orm';
import { getDb, type Tx } from '@/db/client';
import { uuidArraySql } from '@/db/raw-query';
import { invitations, memberships, people, sites, users } from '@/db/schema';
import { actorOf, recordEvent } from '@/lib/activity';
import { badRequest, conflict, forbidden, notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/query';
import { sendInvitation } from './invitations';
import { can, type MemberRole, ownAccountOf, type Principal, requireAbility, requireWritable } from '@/lib/access';
import { endSessionsWithoutAccount } from '@/lib/identity';

export interface Member {
  personId: string;
  name: string;
  email: string;
  role: MemberRole;
  /** A Viewer's sites; null for the whole account. */
  siteIds: string[] | null;
  joinedAt: Date;
  lastSignInAt: Date | null;
  twoFactor: boolean;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: MemberRole;
  siteIds: string[] | null;
  invitedBy: string | null;
  expiresAt: Date;
}

/** Members and open invitations are for the account's own people, and only Owners and Admins manage them. */
function requireMemberManager(principal: Principal, what: string): void {
  if (principal.via !== 'session' || !principal.personId) throw forbidden(`${what} is done signed in, by a person.`);
  requireWritable(principal);
  requireAbility(principal, 'manageMembers', what);
}

/** Owners alone make, change or remove Owners. */
function requireOwnerFor(principal: Principal, role: MemberRole, what: string): void {
  if (role === 'owner' && !can(principal, 'manageOwners')) throw forbidden(`${what} an Owner needs the Owner role.`);
}

/** The account's members, Owners first, then by name; and its invitations still open. */
export async function listMembers(
  principal: Principal,
): Promise<{ members: Member[]; invitations: PendingInvitation[] }> {
  requireMemberManager(principal, 'Seeing the members');
  const db = await getDb();
  const [members, open] = await Promise.all([
    db
      .select({
        personId: people.id,
        name: people.name,
        email: people.email,
        role: memberships.role,
        siteIds: memberships.siteIds,
        joinedAt: memberships.createdAt,
        lastSignInAt: people.lastSignInAt,
        twoFactor: sql<boolean>`${people.totpEnabledAt} is not null`,
      })
      .from(memberships)
      .innerJoin(people, eq(people.id, memberships.personId))
      .where(eq(memberships.accountId, principal.userId))
      .orderBy(asc(memberships.role), asc(people.name), asc(people.id)),
    db
      .select({
        id: invitations.id,
        email: invitations.email,
        role: invitations.role,
        siteIds: invitations.siteIds,
        invitedBy: people.email,
        expiresAt: invitations.expiresAt,
      })
      .from(invitations)
      .leftJoin(people, eq(people.id, invitations.invitedBy))
      .where(and(eq(invitations.accountId, principal.userId), pendingInvitation))
      .orderBy(asc(invitations.email)),
  ]);
  return { members, invitations: open };
}

const pendingInvitation = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

export interface InviteMemberInput {
  email: string;
  role: MemberRole;
  siteIds?: string[] | null;
}

/** The account's row, for the invitation's words; locked so that concurrent changes to its members queue. */
async function lockAccount(tx: Tx, accountId: string) {
  const [account] = await tx
    .select({ id: users.id, name: users.name, role: users.role })
    .from(users)
    .where(eq(users.id, accountId))
    .for('update');
  if (!account) throw notFound('The account no longer exists.');
  return account;
}

/** A Viewer's sites must be the account's own; other roles read every site. */
async function checkedSites(tx: Tx, accountId: string, input: Pick<InviteMemberInput, 'role' | 'siteIds'>) {
  if (input.role !== 'viewer' || !input.siteIds?.length) return null;
  const ids = [...new Set(input.siteIds.map((id) => id.toLowerCase()))];
  const own = ids.every(isUuid)
    ? await tx
        .select({ id: sites.id })
        .from(sites)
        .where(and(eq(sites.userId, accountId), sql`${sites.id} = any(${uuidArraySql(ids)})`))
    : [];
  if (own.length !== ids.length) throw badRequest('siteIds', 'Choose sites of this account.');
  return ids;
}

/**
 * Invites someone by e-mail with a role (and a Viewer's sites): a single-use link for 72 hours, replacing an
 * open invitation to the same address. Someone already a member is a conflict. The link goes only into the
 * e-mail (lib/accounts/invitations.ts).
 */
export async function inviteMember(
  principal: Principal,
  input: InviteMemberInput,
): Promise<{ id: string; email: string }> {
  requireMemberManager(principal, 'Inviting members');
  requireOwnerFor(principal, input.role, 'Inviting');
  const email = input.email.trim().toLowerCase();
  const db = await getDb();
  return db.transaction(async (tx) => {
    const account = await lockAccount(tx, principal.userId);
    const [member] = await tx
      .select({ id: people.id })
      .from(memberships)
      .innerJoin(people, eq(people.id, memberships.personId))
      .where(and(eq(memberships.accountId, account.id), eq(people.email, email)));
    if (member) throw conflict(`email: ${email} is already a member of ${account.name}.`);
    const siteIds = await checkedSites(tx, account.id, input);
    return sendInvitation(tx, principal, { account, email, role: input.role, siteIds });
  });
}

/** An open invitation of the principal's account, locked; 404 for any other id. */
async function lockInvitation(tx: Tx, principal: Principal, id: string) {
  const [row] = isUuid(id)
    ? await tx
        .select()
        .from(invitations)
        .where(
          and(eq(invitations.id, id.toLowerCase()), eq(invitations.accountId, principal.userId), pendingInvitation),
        )
        .for('update')
    : [];
  if (!row) throw notFound(`No open invitation with id ${id}.`);
  return row;
}

/** Sends an open invitation again with a new link (the earlier one stops working) and 72 more hours. */
export async function resendMemberInvitation(principal: Principal, id: string): Promise<{ id: string; email: string }> {
  requireMemberManager(principal, 'Sending invitations');
  const db = await getDb();
  return db.transaction(async (tx) => {
    const row = await lockInvitation(tx, principal, id);
    requireOwnerFor(principal, row.role, 'Inviting');
    const account = await lockAccount(tx, principal.userId);
    return sendInvitation(tx, principal, { account, email: row.email, role: row.role, siteIds: row.siteIds });
  });
}

/** Withdraws an open invitation: its link stops working at once. */
export async function revokeInvitation(principal: Principal, id: string): Promise<void> {
  requireMemberManager(principal, 'Revoking invitations');
  const db = await getDb();
  await db.transaction(async (tx) => {
    const row = await lockInvitation(tx, principal, id);
    requireOwnerFor(principal, row.role, 'Revoking the invitation of');
    await tx.update(invitations).set({ revokedAt: new Date() }).where(eq(invitations.id, row.id));
    await recordEvent(tx, actorOf(principal), {
      kind: 'invitation.revoked',
      accountId: ownAccountOf(principal),
      subjectId: row.id,
      details: { email: row.email, role: row.role },
    });
  });
}

/** A member of the principal's account with the person's e-mail, locked; 404 for anyone else. */
async function lockMember(tx: Tx, principal: Principal, personId: string) {
  const [row] = isUuid(personId)
    ? await tx
        .select({ personId: memberships.personId, role: memberships.role, email: people.email })
        .from(memberships)
        .innerJoin(people, eq(people.id, memberships.personId))
        .where(and(eq(memberships.accountId, principal.userId), eq(memberships.personId, personId.toLowerCase())))
        .for('update', { of: memberships })
    : [];
  if (!row) throw notFound(`No member with id ${personId}.`);
  return row;
}

/** Refuses a change that would leave the account without an Owner. */
async function keepAnOwner(tx: Tx, accountId: string, leaving: { personId: string; role: MemberRole }, what: string) {
  if (leaving.role !== 'owner') return;
  const [{ others }] = await tx
    .select({ others: count() })
    .from(memberships)
    .where(
      and(
        eq(memberships.accountId, accountId),
        eq(memberships.role, 'owner'),
        ne(memberships.personId, leaving.personId),
      ),
    );
  if (others === 0) throw conflict(`${what}: an account keeps at least one Owner. Make someone else Owner first.`);
}

/** Changes a member's role (and a Viewer's sites). Owners alone touch Owners; the last Owner stays one. */
export async function changeMemberRole(
  principal: Principal,
  personId: string,
  input: { role: MemberRole; siteIds?: string[] | null },
): Promise<void> {
  requireMemberManager(principal, 'Changing roles');
  const db = await getDb();
  await db.transaction(async (tx) => {
    await lockAccount(tx, principal.userId);
    const member = await lockMember(tx, principal, personId);
    requireOwnerFor(principal, member.role, 'Changing the role of');
    requireOwnerFor(principal, input.role, 'Making');
    if (input.role !== 'owner') await keepAnOwner(tx, principal.userId, member, 'The role stays Owner');
    const siteIds = await checkedSites(tx, principal.userId, input);
    await tx
      .update(memberships)
      .set({ role: input.role, siteIds })
      .where(and(eq(memberships.accountId, principal.userId), eq(memberships.personId, member.personId)));
    await recordEvent(tx, actorOf(principal), {
      kind: 'member.role_changed',
      accountId: ownAccountOf(principal),
      subjectId: member.personId,
      details: { email: member.email, from: member.role, to: input.role, siteIds },
    });
  });
}

/**
 * Removes a member: they stop acting for the account at their next request (every request checks the
 * membership), and their sessions end when they have no other account left. Owners alone remove Owners;
 * the last Owner stays. Keys they made keep working until revoked.
 */
export async function removeMember(principal: Principal, personId: string): Promise<void> {
  requireMemberManager(principal, 'Removing members');
  if (personId.toLowerCase() === principal.personId) throw conflict('To leave the account, use Leave instead.');
  await dropMembership(principal, personId, 'member.removed');
}

/** The signed-in person leaves the account (not its last Owner). */
export async function leaveAccount(principal: Principal): Promise<void> {
  if (principal.via !== 'session' || !principal.personId) throw forbidden('Leaving is done signed in, by a person.');
  requireWritable(principal);
  await dropMembership(principal, principal.personId, 'member.left');
}

async function dropMembership(principal: Principal, personId: string, kind: 'member.removed' | 'member.left') {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await lockAccount(tx, principal.userId);
    const member = await lockMember(tx, principal, personId);
    if (kind === 'member.removed') requireOwnerFor(principal, member.role, 'Removing');
    await keepAnOwner(tx, principal.userId, member, kind === 'member.left' ? 'You cannot leave' : 'Not removed');
    await tx
      .delete(memberships)
      .where(and(eq(memberships.accountId, principal.userId), eq(memberships.personId, member.personId)));
    const ended = await endSessionsWithoutAccount(tx, sql`${member.personId}::uuid`);
    await recordEvent(tx, actorOf(principal), {
      kind,
      accountId: ownAccountOf(principal),
      subjectId: member.personId,
      details: { email: member.email, role: member.role, sessionsEnded: ended },
    });
  });
}

/** The account's Owners, the people told about what concerns the whole account (a password reset, a webhook). */
export const ownersOf = (tx: Tx, accountId: string) =>
  tx
    .select({ id: people.id, email: people.email, name: people.name })
    .from(memberships)
    .innerJoin(people, eq(people.id, memberships.personId))
    .where(and(eq(memberships.accountId, accountId), eq(memberships.role, 'owner')))
    .orderBy(people.email);

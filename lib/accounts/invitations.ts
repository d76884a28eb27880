/**
 * Invitations to join an account with a role: an e-mailed single-use link (72 h; only its SHA-256 stored). The
 * link travels by e-mail only: the inviter is told it was sent, never shown it, so only the address's owner
 * can open it, and the outbox clears its body once sent (a `secret` message, like a reset link).
 * Someone new sets a password with it; someone who already signs in here joins with their own password.
 * A new link for the same account and e-mail replaces the pending one; revoking or using it voids it.
 */
import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import { getDb, type Tx } from '@/db/client';
import { invitations, memberships, people, users } from '@/db/schema';
import { actorOf, recordEvent } from '@/lib/activity';
import { queueMail, renderMail } from '@/lib/mail';
import { publicUrl } from '@/lib/platform/public-url';
import { sha256Hex } from '@/lib/shared/crypto';
import { badRequest, rateLimited } from '@/lib/shared/errors';
import { getRateLimitStore, secondsUntilReset } from '@/lib/ratelimit';
import { hidingParameters } from '@/lib/shared/sql-errors';
import {
  checkCredentials,
  passwordProblem,
  type SessionOrigin,
  beginSession,
  type OpenedSession,
  TOKEN_LIFETIME_MS,
} from '@/lib/identity';
import { type MemberRole, ownAccountOf, type Principal, ROLE_LABELS } from '@/lib/access';

const INVITATION_HOURS = TOKEN_LIFETIME_MS.invitation / 3_600_000;

/**
 * Invitations (first sends and resends alike) one account may send within the window: enough for a team's
 * onboarding, too few to spam addresses or probe them from the account. Per account invited into.
 */
export const INVITATION_LIMIT = { perAccount: 20, windowMs: 60 * 60_000 };

/** Counts an invitation against its account; refuses (429, Retry-After) past INVITATION_LIMIT. */
async function countInvitation(accountId: string): Promise<void> {
  const store = getRateLimitStore();
  const { perAccount, windowMs } = INVITATION_LIMIT;
  const count = await store.hit(`invite:${accountId}`, perAccount, windowMs);
  if (count.success) return;
  const seconds = secondsUntilReset(store, count);
  const minutes = Math.ceil(seconds / 60);
  throw rateLimited(
    `This account sent ${perAccount} invitations within the hour, the most it may. ` +
      `Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    seconds,
  );
}

/** The page an invitation link opens; the token is a path segment, so it never sits in a query string. */
const invitationPath = (token: string) => `/invitation/${token}`;

export interface InvitationInput {
  account: { id: string; name: string; role: 'publisher' | 'admin' };
  email: string;
  role: MemberRole;
  /** A Viewer's sites; null for the whole account. */
  siteIds?: string[] | null;
}

/**
 * Issues an invitation link (replacing a pending one for the same account and e-mail) and queues its e-mail,
 * in the caller's transaction, with the event `invitation.sent`. Returns the invitation's id and address: the
 * link itself goes only into the e-mail.
 */
export async function sendInvitation(
  tx: Tx,
  principal: Principal,
  input: InvitationInput,
): Promise<{ id: string; email: string }> {
  await countInvitation(input.account.id);
  const email = input.email.trim().toLowerCase();
  const token = randomBytes(32).toString('base64url');
  const values = {
    role: input.role,
    siteIds: input.role === 'viewer' ? (input.siteIds ?? null) : null,
    invitedBy: principal.viewedBy ? null : (principal.personId ?? null),
    tokenHash: sha256Hex(token),
    expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS.invitation),
  };
  const [row] = await hidingParameters(
    tx
      .insert(invitations)
      .values({ accountId: input.account.id, email, ...values })
      .onConflictDoUpdate({
        target: [invitations.accountId, invitations.email],
        targetWhere: and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt)),
        set: { ...values, createdAt: new Date() },
      })
      .returning({ id: invitations.id }),
  );
  const mailId = await queueMail(tx, {
    kind: 'invitation',
    to: email,
    secret: true,
    ...invitationMail(input, email, publicUrl(invitationPath(token))),
  });
  await recordEvent(tx, actorOf(principal), {
    kind: 'invitation.sent',
    // An admin account's invitations belong to no publisher: the event names the invitation only.
    accountId: ownAccountOf({ userId: input.account.id, role: input.account.role }),
    subjectId: row.id,
    details: { email, role: input.role, mailId },
  });
  return { id: row.id, email };
}

function invitationMail(input: InvitationInput, email: string, url: string) {
  const role = ROLE_LABELS[input.role];
  return {
    subject: `Join ${input.account.name} on the Publisher Portal`,
    ...renderMail({
      greeting: 'Hello,',
      paragraphs: [
        `You are invited to ${input.account.name} on the Publisher Portal as ${role} (${email}).`,
        'Open the link to choose your password, or to join with the one you already use here.',
      ],
      action: { label: `Join ${input.account.name}`, url },
      closing: [
        `The link works once and for ${INVITATION_HOURS} hours. If it has expired, ask for a new one.`,
        'If you did not expect this, ignore this message: nothing happens without the link.',
      ],
    }),
  };
}

/** A pending, unexpired invitation by its link, into an account that is not deactivated. */
const openInvitation = (token: string) =>
  and(
    eq(invitations.tokenHash, sha256Hex(token)),
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
    gt(invitations.expiresAt, new Date()),
    ne(users.status, 'deactivated'),
  );

export interface InvitationView {
  accountName: string;
  email: string;
  role: MemberRole;
  /** The e-mail already signs in here: the page asks for that password instead of a new one. */
  hasSignIn: boolean;
}

/** What a link invites to, for the page it opens; null when it is unknown, used, revoked or expired. */
export async function invitationFor(token: string): Promise<InvitationView | null> {
  if (!token) return null;
  const db = await getDb();
  const [row] = await hidingParameters(
    db
      .select({ accountName: users.name, email: invitations.email, role: invitations.role, personId: people.id })
      .from(invitations)
      .innerJoin(users, eq(users.id, invitations.accountId))
      .leftJoin(people, eq(people.email, invitations.email))
      .where(openInvitation(token)),
  );
  return row
    ? { accountName: row.accountName, email: row.email, role: row.role, hasSignIn: row.personId !== null }
    : null;
}

/**
 * Accepts an invitation: someone new becomes a person with the password they chose (argon2id); someone who
 * signs in here already proves it with their password (throttled like signing in). Either way they become a
 * member with the invitation's role, the account turns `active` if it was waiting for its owner,
 * `invitation.accepted` is recorded and their session begins the one way every session does (beginSession: a
 * person with a second factor is asked for their code first), in one transaction that also uses up the link.
 * Null when the link no longer opens anything; a 400 on `password` when a new password is refused (the link
 * then still works).
 */
export async function acceptInvitation(
  token: string,
  input: { password: string; name?: string },
  origin: SessionOrigin,
): Promise<(OpenedSession & { accountId: string }) | null> {
  const invitation = await invitationFor(token);
  if (!invitation) return null;
  let personId: string | null = null;
  let passwordHash: string | null = null;
  if (invitation.hasSignIn) {
    const checked = await checkCredentials(invitation.email, input.password, origin.clientAddress);
    if (!checked.ok && checked.reason === 'throttled') {
      const minutes = Math.ceil(checked.retryAfterSeconds / 60);
      const wait = `${minutes} minute${minutes === 1 ? '' : 's'}`;
      throw rateLimited(`Too many attempts. Try again in ${wait}.`, checked.retryAfterSeconds);
    }
    if (!checked.ok) throw badRequest('password', `This is not the password of ${invitation.email} here.`);
    await checked.clearFailures();
    personId = checked.person.id;
  } else {
    const problem = passwordProblem(input.password);
    if (problem) throw badRequest('password', problem);
    passwordHash = await hash(input.password);
  }
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await hidingParameters(
      tx
        .update(invitations)
        .set({ acceptedAt: new Date() })
        .from(users)
        .where(and(eq(users.id, invitations.accountId), openInvitation(token)))
        .returning({
          id: invitations.id,
          accountId: invitations.accountId,
          accountRole: users.role,
          email: invitations.email,
          role: invitations.role,
          siteIds: invitations.siteIds,
        }),
    );
    if (!row) return null;
    personId ??= await createPerson(tx, row.email, input.name, passwordHash);
    await tx
      .insert(memberships)
      .values({ accountId: row.accountId, personId, role: row.role, siteIds: row.siteIds })
      .onConflictDoNothing();
    await tx
      .update(users)
      .set({ status: 'active' })
      .where(and(eq(users.id, row.accountId), eq(users.status, 'invited')));
    const principal: Principal = {
      userId: row.accountId,
      role: row.accountRole,
      personId,
      memberRole: row.role,
      siteScope: null,
      via: 'session',
      clientAddress: origin.clientAddress,
    };
    await recordEvent(tx, actorOf(principal, row.email), {
      kind: 'invitation.accepted',
      accountId: ownAccountOf(principal),
      subjectId: row.id,
      details: { role: row.role },
    });
    const person = { id: personId, email: row.email };
    return { ...(await beginSession(tx, person, origin, 'invitation')), accountId: row.accountId };
  });
}

/** A new person with the e-mail, name (the e-mail's local part when none is given) and password hash. */
async function createPerson(tx: Tx, email: string, name: string | undefined, passwordHash: string | null) {
  const [created] = passwordHash
    ? await tx
        .insert(people)
        .values({ email, name: name?.trim() || email.slice(0, email.indexOf('@')), passwordHash })
        .onConflictDoNothing({ target: people.email })
        .returning({ id: people.id })
    : [];
  // Only a race: someone joined with this e-mail between the page and now; their password is needed instead.
  if (!created) throw badRequest('password', `${email} signs in here already: reload the page and use that password.`);
  return created.id;
}

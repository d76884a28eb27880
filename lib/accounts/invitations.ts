/**
 * Invitations: the e-mailed single-use link (72 h, lib/accounts/tokens.ts) with which an invited publisher
 * sets a first password and signs in. Only the newest link of an account works; using it voids it.
 */
import { hash } from '@node-rs/argon2';
import { and, eq } from 'drizzle-orm';
import { getDb, type Tx } from '@/db/client';
import { users } from '@/db/schema';
import { actorOf, recordEvent } from '@/lib/audit';
import { queueMail, renderMail } from '@/lib/mail';
import { publicUrl } from '@/lib/platform/public-url';
import { badRequest } from '@/lib/shared/errors';
import { hidingParameters } from '@/lib/shared/sql-errors';
import { passwordProblem } from './passwords';
import type { Principal } from './principal';
import { openSession } from './sessions';
import { consumeToken, peekToken } from './tokens';
import { issueToken, TOKEN_LIFETIME_MS } from './tokens';

const INVITATION_HOURS = TOKEN_LIFETIME_MS.invitation / 3_600_000;

/** The page an invitation link opens; the token is a path segment, so it never sits in a query string. */
const invitationPath = (token: string) => `/invitation/${token}`;

/**
 * Issues a new invitation link for an invited account (voiding any earlier one) and queues its e-mail, in the
 * caller's transaction, with the event `invitation.sent`. Returns the link: the caller may show it once.
 */
export async function sendInvitation(
  tx: Tx,
  principal: Principal,
  account: { id: string; name: string; email: string; role: 'publisher' | 'admin' },
): Promise<string> {
  const token = await issueToken(tx, account.id, 'invitation');
  const url = publicUrl(invitationPath(token));
  const mailId = await queueMail(tx, {
    kind: 'invitation',
    to: account.email,
    subject: 'Your Publisher Portal account',
    ...renderMail({
      greeting: `Hello ${account.name},`,
      paragraphs: [
        `An account on the Publisher Portal has been created for you (${account.email}).`,
        'Choose your password to sign in and see the revenue of your games.',
      ],
      action: { label: 'Set your password', url },
      closing: [
        `The link works once and for ${INVITATION_HOURS} hours. If it has expired, ask your contact for a new one.`,
        'If you did not expect this, ignore this message: nothing happens without the link.',
      ],
    }),
  });
  await recordEvent(tx, actorOf(principal), {
    kind: 'invitation.sent',
    // An admin owns no publisher account: the event names the person as its subject only.
    accountId: account.role === 'publisher' ? account.id : null,
    subjectId: account.id,
    details: { email: account.email, mailId },
  });
  return url;
}

/** Whose invitation a link is, for the page it opens; null when the link is unknown, used, expired or superseded. */
export async function invitationFor(token: string): Promise<{ name: string; email: string } | null> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const userId = await peekToken(tx, token, 'invitation');
    if (!userId) return null;
    const [account] = await tx
      .select({ name: users.name, email: users.email })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.status, 'invited')));
    return account ?? null;
  });
}

/**
 * Accepts an invitation: sets the first password (argon2id), makes the account `active`, opens a session and
 * records `invitation.accepted`, in one transaction that also consumes the link. Null when the link no longer
 * opens an invited account (used, expired, superseded, or the account was deactivated meanwhile); a 400 on
 * `password` when the password is refused (the link is then still valid).
 */
export async function acceptInvitation(
  token: string,
  password: string,
  clientAddress: string,
): Promise<{ token: string; expiresAt: Date } | null> {
  const problem = passwordProblem(password);
  if (problem) throw badRequest('password', problem);
  const passwordHash = await hash(password);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const userId = await consumeToken(tx, token, 'invitation');
    if (!userId) return null;
    const [account] = await hidingParameters(
      tx
        .update(users)
        .set({ passwordHash, status: 'active' })
        .where(and(eq(users.id, userId), eq(users.status, 'invited')))
        .returning({ id: users.id, role: users.role, email: users.email }),
    );
    if (!account) return null;
    const principal: Principal = {
      userId: account.id,
      role: account.role,
      siteScope: null,
      via: 'session',
      clientAddress,
    };
    await recordEvent(tx, actorOf(principal, account.email), {
      kind: 'invitation.accepted',
      accountId: account.id,
      subjectId: account.id,
    });
    return openSession(tx, account.id);
  });
}

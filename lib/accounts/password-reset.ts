import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { sessions, users } from '@/db/schema';
import { actorOf, recordEvent } from '@/lib/audit';
import { getRateLimitStore, secondsUntilReset } from '@/lib/ratelimit';
import { sha256Hex } from '@/lib/shared/crypto';
import { badRequest, conflict, forbidden, notFound } from '@/lib/shared/errors';
import { hidingParameters } from '@/lib/shared/sql-errors';
import { passwordProblem } from './passwords';
import { queuePasswordChangedNotice, queueResetLink, resetLinkMail } from './password-mail';
import type { Principal } from './principal';
import { consumeToken, issueToken, peekToken } from './tokens';
import { requirePublisher } from './users';

/**
 * "Forgot password" requests allowed within the window: per address asked for from one client address, per
 * client address, and per address asked for from anywhere (so nobody floods a mailbox from many addresses).
 * Counted whether or not an account exists, so a refusal tells nothing. None of them keeps anyone from
 * signing in: the password still works, and a link already sent stays valid.
 */
export const RESET_REQUEST_LIMITS = { perAccountAndAddress: 3, perAddress: 10, perAccount: 5, windowMs: 15 * 60_000 };

/** Whatever the outcome, the answer takes at least this long: the database work of the two branches differs. */
const RESET_REQUEST_FLOOR_MS = 250;

export type ResetRequestResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * "Forgot password": when an active account has this e-mail, a single-use reset link (60 minutes) is queued
 * to it, superseding any earlier one, and `password.reset_requested` recorded. The answer and, as far as can
 * be, its time are the same whether or not the account exists (or is invited or deactivated: they get
 * nothing, the invitation being the way in for the one, and an administrator's decision the other's).
 */
export async function requestPasswordReset(email: string, clientAddress: string): Promise<ResetRequestResult> {
  const started = Date.now();
  const normalized = email.trim().toLowerCase();
  const store = getRateLimitStore();
  const { perAccountAndAddress, perAddress, perAccount, windowMs } = RESET_REQUEST_LIMITS;
  // Hashed: a counter's name holds no e-mail address.
  const checks = await Promise.all([
    store.hit(`reset:pair:${sha256Hex(`${clientAddress}\n${normalized}`)}`, perAccountAndAddress, windowMs),
    store.hit(`reset:addr:${clientAddress}`, perAddress, windowMs),
    store.hit(`reset:account:${sha256Hex(normalized)}`, perAccount, windowMs),
  ]);
  const blocked = checks.find((c) => !c.success);
  if (blocked) return { ok: false, retryAfterSeconds: secondsUntilReset(store, blocked) };

  const db = await getDb();
  const [user] = await hidingParameters(
    db
      .select({ id: users.id, email: users.email, name: users.name, role: users.role, status: users.status })
      .from(users)
      .where(eq(users.email, normalized))
      .limit(1),
  );
  if (user?.status === 'active') {
    await db.transaction(async (tx) => {
      const token = await issueToken(tx, user.id, 'password_reset');
      await queueResetLink(tx, user, token);
      await recordEvent(tx, actorOf({ userId: user.id, role: user.role, via: 'session', clientAddress }, user.email), {
        kind: 'password.reset_requested',
        accountId: accountOf(user),
        subjectId: user.id,
      });
    });
  } else {
    // The same token and message work as for an account, written nowhere.
    const token = randomBytes(32).toString('base64url');
    sha256Hex(token);
    resetLinkMail({ email: normalized, name: normalized }, token);
  }
  const left = RESET_REQUEST_FLOOR_MS - (Date.now() - started);
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  return { ok: true };
}

const linkDoesNotWork = () => notFound('This reset link is invalid, used or expired. Ask for a new one.');

const accountOf = (user: { id: string; role: 'publisher' | 'admin' }) => (user.role === 'publisher' ? user.id : null);

/** Whether a reset link still works (unknown, used, superseded and expired links do not): for its page. */
export async function resetLinkWorks(token: string): Promise<boolean> {
  const db = await getDb();
  return (await peekToken(db, token, 'password_reset')) !== null;
}

/**
 * Sets a new password from a reset link: the link is consumed (single use), every session of the account
 * ends, a "your password was reset" notice is queued and `password.reset` recorded, in one transaction. The
 * person then signs in with the new password (not signed in here: one way in, with its checks and throttle).
 * A weak password is refused before the link is spent.
 */
export async function resetPassword(
  token: string,
  newPassword: string,
  clientAddress: string,
): Promise<{ email: string }> {
  const problem = passwordProblem(newPassword);
  if (problem) throw badRequest('password', `The new password ${problem}.`);
  const db = await getDb();
  // A dead link costs no argon2 hash: nobody can make the server hash for nothing with made-up links.
  if ((await peekToken(db, token, 'password_reset')) === null) throw linkDoesNotWork();
  const passwordHash = await hash(newPassword);
  return db.transaction(async (tx) => {
    const userId = await consumeToken(tx, token, 'password_reset');
    const [user] = userId
      ? await tx
          .select({ id: users.id, email: users.email, name: users.name, role: users.role, status: users.status })
          .from(users)
          .where(eq(users.id, userId))
      : [];
    if (!user || user.status !== 'active') throw linkDoesNotWork();
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    await queuePasswordChangedNotice(tx, user, 'reset');
    await recordEvent(tx, actorOf({ userId: user.id, role: user.role, via: 'session', clientAddress }, user.email), {
      kind: 'password.reset',
      accountId: accountOf(user),
      subjectId: user.id,
    });
    return { email: user.email };
  });
}

/**
 * An administrator sends a publisher a reset link (the Publishers page). The link goes by e-mail only: the
 * administrator never sees it. An invited or deactivated account gets none: 409 says what to do instead.
 */
export async function sendPasswordResetAsAdmin(principal: Principal, userId: string): Promise<{ sentTo: string }> {
  if (principal.role !== 'admin' || principal.viewedBy) throw forbidden('Only admins can send a password reset link.');
  const publisher = await requirePublisher(userId);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email, name: users.name, status: users.status })
      .from(users)
      .where(eq(users.id, publisher.id));
    if (user.status === 'invited') {
      throw conflict(`${user.email} has not accepted the invitation yet: send the invitation again instead.`);
    }
    if (user.status === 'deactivated') throw conflict(`${user.email} is deactivated: reactivate the account first.`);
    const token = await issueToken(tx, user.id, 'password_reset');
    await queueResetLink(tx, user, token, true);
    await recordEvent(tx, actorOf(principal), {
      kind: 'password.reset_requested',
      accountId: user.id,
      subjectId: user.id,
      details: { sentBy: 'admin' },
    });
    return { sentTo: user.email };
  });
}

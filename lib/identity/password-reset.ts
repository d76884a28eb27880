import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { people, sessions } from '@/db/schema';
import { type Actor, recordEvent } from '@/lib/activity';
import { getRateLimitStore, secondsUntilReset } from '@/lib/ratelimit';
import { sha256Hex } from '@/lib/shared/crypto';
import { badRequest, notFound } from '@/lib/shared/errors';
import { hidingParameters } from '@/lib/shared/sql-errors';
import { ownAccountOf } from '@/lib/access';
import { passwordProblem } from './passwords';
import { queuePasswordChangedNotice, queueResetLink, resetLinkMail } from './password-mail';
import { type Membership, membershipsOf } from './sessions';
import { consumeToken, issueToken, peekToken, voidTokens } from './tokens';

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
 * "Forgot password": when a person with an active account signs in with this e-mail, a single-use reset link
 * (60 minutes) is queued to them, superseding any earlier one, and `password.reset_requested` recorded. The
 * answer and, as far as can be, its time are the same whether or not the person exists (or has no active
 * account left: they get nothing, an administrator's or an owner's decision being what shut them out).
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
  const [person] = await hidingParameters(
    db
      .select({ id: people.id, email: people.email, name: people.name })
      .from(people)
      .where(eq(people.email, normalized))
      .limit(1),
  );
  const [home] = person ? await membershipsOf(db, person.id) : [];
  if (person && home) {
    await db.transaction(async (tx) => {
      const token = await issueToken(tx, person.id, 'password_reset');
      await queueResetLink(tx, person, token);
      await recordEvent(tx, personActor(person, clientAddress), {
        kind: 'password.reset_requested',
        accountId: publisherAccountOf(home),
        subjectId: person.id,
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

/** The account an event of a person's password concerns: where they land, when it is a publisher's. */
const publisherAccountOf = (home: Membership | undefined) =>
  home ? ownAccountOf({ userId: home.accountId, role: home.accountRole }) : null;

/** A signed-out person acting on their own password (a reset), as the log names them. */
const personActor = (person: { id: string; email: string }, clientAddress: string): Actor => ({
  kind: 'user',
  id: person.id,
  label: person.email,
  clientAddress,
});

/** Whether a reset link still works (unknown, used, superseded and expired links do not): for its page. */
export async function resetLinkWorks(token: string): Promise<boolean> {
  const db = await getDb();
  return (await peekToken(db, token, 'password_reset')) !== null;
}

/**
 * Sets a new password from a reset link: the link is consumed (single use), every session of the person
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
    const personId = await consumeToken(tx, token, 'password_reset');
    const [person] = personId
      ? await tx
          .select({ id: people.id, email: people.email, name: people.name })
          .from(people)
          .where(eq(people.id, personId))
      : [];
    const [home] = person ? await membershipsOf(tx, person.id) : [];
    if (!person || !home) throw linkDoesNotWork();
    // Whoever typed wrong codes had the old password, which works no more: the real person need not wait them out.
    await tx
      .update(people)
      .set({ passwordHash, secondFactorFailures: 0, secondFactorFailedAt: null })
      .where(eq(people.id, person.id));
    await tx.delete(sessions).where(eq(sessions.personId, person.id));
    // Only the newest link works (issueToken), and it was just used; any other is void all the same.
    await voidTokens(tx, person.id, 'password_reset');
    await queuePasswordChangedNotice(tx, person, 'reset');
    await recordEvent(tx, personActor(person, clientAddress), {
      kind: 'password.reset',
      accountId: publisherAccountOf(home),
      subjectId: person.id,
    });
    return { email: person.email };
  });
}

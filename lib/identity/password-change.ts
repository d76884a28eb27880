import { hash, verify } from '@node-rs/argon2';
import { and, eq, ne } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { people, sessions } from '@/db/schema';
import { actorOf, recordEvent } from '@/lib/activity';
import { getRateLimitStore, secondsUntilReset } from '@/lib/ratelimit';
import { sha256Hex } from '@/lib/shared/crypto';
import { AppError, badRequest, forbidden } from '@/lib/shared/errors';
import { passwordProblem } from './passwords';
import { queuePasswordChangedNotice } from './password-mail';
import { ownAccountOf, type Principal, requireWritable } from '@/lib/access';
import { voidTokens } from './tokens';

/** Attempts per account per window: a stolen session must not guess the current password on forever. */
export const CHANGE_PASSWORD_LIMIT = { attempts: 10, windowMs: 15 * 60_000 };

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
}

/**
 * A signed-in person changes their password: the current one is required, the new one must pass
 * passwordProblem. Every other session of the person ends (the one making the change, `keepSessionToken`,
 * stays), every outstanding reset link stops working, a notice goes out by e-mail and the activity log records
 * `password.changed`, all in one transaction.
 */
export async function changePassword(
  principal: Principal,
  input: ChangePasswordInput,
  keepSessionToken: string,
): Promise<void> {
  if (principal.via !== 'session' || !principal.personId) {
    throw forbidden('A password is changed from the dashboard, signed in.');
  }
  requireWritable(principal);
  const db = await getDb();
  const [person] = await db
    .select({ id: people.id, email: people.email, name: people.name, passwordHash: people.passwordHash })
    .from(people)
    .where(eq(people.id, principal.personId));
  if (!person) throw forbidden('This person no longer exists.');

  // Every attempt counts, as at sign-in; a right password clears the count. Per person: only their sessions try.
  const store = getRateLimitStore();
  const bucket = `pwchange:${person.id}`;
  const { attempts, windowMs } = CHANGE_PASSWORD_LIMIT;
  const count = await store.hit(bucket, attempts, windowMs);
  if (!count.success) {
    const minutes = Math.ceil(secondsUntilReset(store, count) / 60);
    throw new AppError(
      'rate_limited',
      `Too many attempts to change the password. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }
  const valid = await verify(person.passwordHash, input.currentPassword).catch(() => false);
  if (!valid) throw badRequest('currentPassword', 'This is not your current password.');
  const problem = passwordProblem(input.newPassword);
  if (problem) throw badRequest('newPassword', `The new password ${problem}.`);
  if (input.newPassword === input.currentPassword) {
    throw badRequest('newPassword', 'The new password must differ from the current one.');
  }

  const passwordHash = await hash(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(people).set({ passwordHash }).where(eq(people.id, person.id));
    // A reset link asked for before the change would undo it: it stops working too.
    await voidTokens(tx, person.id, 'password_reset');
    await tx
      .delete(sessions)
      .where(and(eq(sessions.personId, person.id), ne(sessions.tokenHash, sha256Hex(keepSessionToken))));
    await queuePasswordChangedNotice(tx, person, 'changed');
    await recordEvent(tx, actorOf(principal, person.email), {
      kind: 'password.changed',
      accountId: ownAccountOf(principal),
      subjectId: person.id,
    });
  });
  await store.reset(bucket, attempts, windowMs);
}

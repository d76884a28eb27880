import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, mailOutbox, sessions } from '@/db/schema';
import { changePassword } from '@/lib/identity';
import { CHANGE_PASSWORD_LIMIT } from '@/lib/identity/password-change';
import { personForSession } from '@/lib/identity/sessions';
import { signIn } from '@/lib/identity/sign-in';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { AppError } from '@/lib/shared/errors';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';
import { sessionPrincipal } from '../support/keys';

const t = useTestDatabase();
const OLD = 'the old password of this test';
const NEW = 'a brand new password for this test';
let addresses = 0;
const newAddress = () => `198.18.0.${++addresses}`;
// The throttle's clock stands still a minute into a 15-minute window: ten guesses never straddle its end.
const CLOCK = Date.UTC(2026, 0, 1, 12, 1);
beforeEach(() => setRateLimitStore(createMemoryStore(() => CLOCK)));
afterEach(() => setRateLimitStore(undefined));

async function signedIn(email: string, password = OLD): Promise<string> {
  const result = await signIn(email, password, newAddress());
  if (!result.ok) throw new Error(`sign-in failed: ${JSON.stringify(result)}`);
  return result.token;
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('change password, signed in', () => {
  it('needs the current password, keeps this session, ends the others, sends a notice and records it', async () => {
    const user = await createPublisher(t.db, { password: OLD });
    const here = await signedIn(user.email);
    const elsewhere = await signedIn(user.email);
    const principal = { ...sessionPrincipal(user.id), clientAddress: '198.18.1.1' };

    const wrong = await failure(
      changePassword(principal, { currentPassword: 'not the password', newPassword: NEW }, here),
    );
    expect(wrong.code).toBe('invalid');
    expect(wrong.errors).toEqual([{ parameter: 'currentPassword', detail: 'This is not your current password.' }]);

    await changePassword(principal, { currentPassword: OLD, newPassword: NEW }, here);
    expect(await personForSession(here)).not.toBeNull();
    expect(await personForSession(elsewhere)).toBeNull();
    expect(await t.db.select().from(sessions).where(eq(sessions.personId, user.id))).toHaveLength(1);
    expect((await signIn(user.email, NEW, newAddress())).ok).toBe(true);

    const [notice] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, user.email));
    expect(notice).toMatchObject({ kind: 'password_changed', subject: 'Your Publisher Portal password was changed' });
    const changes = t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, user.id), eq(auditEvents.kind, 'password.changed')));
    expect(await changes).toEqual([
      expect.objectContaining({
        kind: 'password.changed',
        actorKind: 'user',
        actorId: user.id,
        accountId: user.id,
        clientAddress: '198.18.1.1',
      }),
    ]);
  });

  it('refuses a new password that breaks a rule, or is the current one, naming the field', async () => {
    const user = await createPublisher(t.db, { password: OLD });
    const here = await signedIn(user.email);
    const principal = sessionPrincipal(user.id);
    for (const [newPassword, detail] of [
      ['too short', 'The new password must be at least 12 characters.'],
      ['1qaz2wsx3edc', 'The new password is on a list of commonly used passwords; choose one that is harder to guess.'],
      [OLD, 'The new password must differ from the current one.'],
    ]) {
      const err = await failure(changePassword(principal, { currentPassword: OLD, newPassword }, here));
      expect(err.errors).toEqual([{ parameter: 'newPassword', detail }]);
    }
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, user.email))).toEqual([]);
  });

  it('is refused to an operator viewing as the publisher and to API keys', async () => {
    const user = await createPublisher(t.db, { password: OLD });
    const here = await signedIn(user.email);
    const input = { currentPassword: OLD, newPassword: NEW };
    const viewed = { ...sessionPrincipal(user.id), viewedBy: user.id };
    expect((await failure(changePassword(viewed, input, here))).code).toBe('forbidden');
    const key = { ...sessionPrincipal(user.id), via: 'apiKey' as const };
    expect((await failure(changePassword(key, input, here))).code).toBe('forbidden');
  });

  it(`stops guessing the current password after ${CHANGE_PASSWORD_LIMIT.attempts} attempts, the right one included`, async () => {
    const user = await createPublisher(t.db, { password: OLD });
    const here = await signedIn(user.email);
    const principal = sessionPrincipal(user.id);
    for (let i = 0; i < CHANGE_PASSWORD_LIMIT.attempts; i++) {
      const err = await failure(changePassword(principal, { currentPassword: `guess ${i}`, newPassword: NEW }, here));
      expect(err.code).toBe('invalid');
    }
    const throttled = await failure(changePassword(principal, { currentPassword: OLD, newPassword: NEW }, here));
    expect(throttled.code).toBe('rate_limited');
    expect(throttled.detail).toBe('Too many attempts to change the password. Try again in 14 minutes.');
    // The session itself is untouched: only changing the password waits.
    expect(await personForSession(here)).not.toBeNull();
  });
});

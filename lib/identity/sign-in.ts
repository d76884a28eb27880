/**
 * Signing in: the password (lib/identity/credentials.ts), then, for a person who turned it on, a code from
 * their authenticator app or a recovery code (lib/identity/two-factor.ts). Between the two steps the browser
 * holds a session that opens nothing (`secondFactorDue`, a few minutes); the second step replaces it with a
 * new one, under a new token.
 */
import { and, eq, gt } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { people, sessions } from '@/db/schema';
import { type Actor, recordEvent } from '@/lib/activity';
import { hidingParameters } from '@/lib/shared/sql-errors';
import { checkCredentials } from './credentials';
import { hashToken, membershipsOf, type SessionOrigin } from './sessions';
import { beginSession, finishSecondFactor, signInAccount } from './session-open';
import { passSecondFactor } from './two-factor';

export type SignInResult =
  /** `secondFactor`: the session waits for a code (the next page asks for it). */
  | { ok: true; token: string; expiresAt: Date; secondFactor: boolean }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

const failedAttempt = (label: string, clientAddress: string): Actor => ({
  kind: 'user',
  id: null,
  label,
  clientAddress,
});

/**
 * Checks an e-mail and password and opens a database session under a new token. Only the SHA-256 of the
 * token is stored; the token itself goes to the browser in an HttpOnly cookie. Attempts are throttled per
 * (client address, e-mail) and per client address; a successful sign-in clears its (address, e-mail) count.
 * Only a person with an active account signs in; anyone else gets a wrong password's answer, after the same
 * verification, so that the answer tells nothing about the person or their accounts.
 */
export async function signIn(
  email: string,
  password: string,
  clientAddress: string,
  userAgent: string | null = null,
): Promise<SignInResult> {
  const normalized = email.trim().toLowerCase();
  const checked = await checkCredentials(normalized, password, clientAddress);
  if (!checked.ok && checked.reason === 'throttled') return checked;
  const db = await getDb();
  const personId = checked.ok ? checked.person.id : checked.personId;
  const [home] = personId ? await membershipsOf(db, personId) : [];
  if (!checked.ok || !home) {
    // Logged on the account the person belongs to, even a deactivated one: its people see who tried.
    const [theirs] = personId ? await membershipsOf(db, personId, { activeOnly: false }) : [];
    await db.transaction((tx) =>
      recordEvent(tx, failedAttempt(normalized, clientAddress), {
        kind: 'sign_in.failed',
        ...signInAccount(theirs, personId),
        details: { email: normalized },
      }),
    );
    return { ok: false, reason: 'invalid' };
  }

  await checked.clearFailures();
  const origin = { clientAddress, userAgent };
  const session = await db.transaction((tx) => beginSession(tx, checked.person, origin, 'password'));
  return { ok: true, ...session };
}

/** The person a session waiting for its second factor belongs to; null when there is none (or it expired). */
export async function pendingSignIn(token: string): Promise<{ personId: string; email: string } | null> {
  if (!token) return null;
  const db = await getDb();
  const [row] = await hidingParameters(
    db
      .select({ personId: people.id, email: people.email })
      .from(sessions)
      .innerJoin(people, eq(people.id, sessions.personId))
      .where(
        and(
          eq(sessions.tokenHash, hashToken(token)),
          eq(sessions.secondFactorDue, true),
          gt(sessions.expiresAt, new Date()),
        ),
      ),
  );
  return row ?? null;
}

/**
 * The second step: a code from the app or a recovery code. Right, it replaces the waiting session with a
 * signed-in one (a new token) and records the sign-in; wrong, `invalid` (the waiting session stays for
 * another try, throttled); null when no session waits under that token.
 */
export async function completeSignIn(
  token: string,
  code: string,
  origin: SessionOrigin,
): Promise<{ ok: true; token: string; expiresAt: Date } | { ok: false; reason: 'invalid' } | null> {
  const pending = await pendingSignIn(token);
  if (!pending) return null;
  const db = await getDb();
  const [home] = await membershipsOf(db, pending.personId);
  if (!home) return null;
  const passed = await db.transaction(async (tx) => {
    const result = await passSecondFactor(tx, pending.personId, code, origin.clientAddress);
    if (!result.ok) return result;
    const person = { id: pending.personId, email: pending.email };
    const opened = await finishSecondFactor(tx, token, person, home, origin, result.recoveryCodeUsed);
    return opened && { ok: true as const, ...opened };
  });
  if (passed === null) return null;
  if (passed.ok) return passed;
  await db.transaction((tx) =>
    recordEvent(tx, failedAttempt(pending.email, origin.clientAddress), {
      kind: 'sign_in.failed',
      ...signInAccount(home, pending.personId),
      details: { email: pending.email, step: 'second factor' },
    }),
  );
  return { ok: false, reason: 'invalid' };
}

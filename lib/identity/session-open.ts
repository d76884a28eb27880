/**
 * The one way into a session. Whatever proved who a person is (their password at sign-in, their password or a
 * new one on an invitation's page), `beginSession` opens their session: a signed-in one, or, for a person who
 * turned two-factor sign-in on, one that opens nothing until the code step (`finishSecondFactor`) replaces it.
 * Nothing else inserts sessions, so no new way in can skip the second factor.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { people, sessions } from '@/db/schema';
import { type Actor, actorOf, recordEvent } from '@/lib/activity';
import { ownAccountOf } from '@/lib/access';
import { hidingParameters } from '@/lib/shared/sql-errors';
import { hashToken, type Membership, membershipsOf, principalOf, SESSION_DAYS, type SessionOrigin } from './sessions';

/** How long the second step of a sign-in (the code) may take. */
const SECOND_FACTOR_MINUTES = 10;
const DAY_MS = 86_400_000;
/** A browser's description is the client's to write: kept to a length a list can show. */
const USER_AGENT_MAX = 400;

/** What proved who the person is: their password at the sign-in page, or an invitation link with a password. */
export type WayIn = 'password' | 'invitation';

export interface OpenedSession {
  /** The raw token, for the cookie only (only its SHA-256 is stored). */
  token: string;
  expiresAt: Date;
  /** The session waits for a code: the next page asks for it, and until then it opens nothing. */
  secondFactor: boolean;
}

/** Whose sign-in an event is: the publisher account the person lands in (none for an admin), and the person. */
export const signInAccount = (home: Membership | undefined, personId: string | undefined) => ({
  accountId: home ? ownAccountOf({ userId: home.accountId, role: home.accountRole }) : null,
  subjectId: personId ?? null,
});

/** The actor of a person signing in, as their home account's log names them. */
const personActor = (personId: string, home: Membership, email: string, origin: SessionOrigin): Actor =>
  actorOf(principalOf(personId, home, origin.clientAddress), email);

/**
 * Opens a session for a person who just proved who they are, in the caller's transaction. With a second
 * factor on, the session only waits for the code; without, it is signed in and `sign_in.succeeded` is recorded
 * in the activity log of the account they land in (their oldest), saying which way they came in.
 */
export async function beginSession(
  tx: Tx,
  person: { id: string; email: string },
  origin: SessionOrigin,
  way: WayIn,
): Promise<OpenedSession> {
  const [row] = await tx.select({ totpEnabledAt: people.totpEnabledAt }).from(people).where(eq(people.id, person.id));
  if (row?.totpEnabledAt) return { ...(await insertSession(tx, person.id, origin, true)), secondFactor: true };
  const [home] = await membershipsOf(tx, person.id);
  const opened = await insertSession(tx, person.id, origin, false);
  if (home) {
    await recordEvent(tx, personActor(person.id, home, person.email, origin), {
      kind: 'sign_in.succeeded',
      ...signInAccount(home, person.id),
      ...(way === 'password' ? {} : { details: { via: way } }),
    });
  }
  return { ...opened, secondFactor: false };
}

/**
 * The second step passed (the caller checked the code in `tx`, the person's row locked): the waiting session is
 * replaced by a signed-in one under a new token, and the sign-in recorded. Null when that session is gone.
 */
export async function finishSecondFactor(
  tx: Tx,
  waitingToken: string,
  person: { id: string; email: string },
  home: Membership,
  origin: SessionOrigin,
  recoveryCodeUsed: boolean,
): Promise<Omit<OpenedSession, 'secondFactor'> | null> {
  // Used once: a second right code for the same waiting session (two tabs) finds it gone.
  const waiting = await tx
    .delete(sessions)
    .where(and(eq(sessions.tokenHash, hashToken(waitingToken)), eq(sessions.secondFactorDue, true)))
    .returning({ personId: sessions.personId });
  if (waiting.length === 0) return null;
  const opened = await insertSession(tx, person.id, origin, false);
  const actor = personActor(person.id, home, person.email, origin);
  const account = signInAccount(home, person.id);
  if (recoveryCodeUsed) await recordEvent(tx, actor, { kind: 'two_factor.recovery_code_used', ...account });
  await recordEvent(tx, actor, { kind: 'sign_in.succeeded', ...account, details: { secondFactor: true } });
  return opened;
}

async function insertSession(tx: Tx, personId: string, origin: SessionOrigin, secondFactorDue: boolean) {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  // A session waiting for its second factor lasts minutes, and opens nothing until then (personForSession).
  const expiresAt = new Date(
    now.getTime() + (secondFactorDue ? SECOND_FACTOR_MINUTES * 60_000 : SESSION_DAYS * DAY_MS),
  );
  await hidingParameters(
    tx.insert(sessions).values({
      tokenHash: hashToken(token),
      personId,
      expiresAt,
      secondFactorDue,
      clientAddress: origin.clientAddress,
      userAgent: origin.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    }),
  );
  if (!secondFactorDue) await tx.update(people).set({ lastSignInAt: now }).where(eq(people.id, personId));
  // Housekeeping on the sign-in path, which is rare: drop this person's expired sessions.
  await tx.delete(sessions).where(and(eq(sessions.personId, personId), lt(sessions.expiresAt, now)));
  return { token, expiresAt };
}

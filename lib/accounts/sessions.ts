import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { and, eq, gt, lt } from 'drizzle-orm';
import { getDb, type Tx } from '@/db/client';
import { actorOf, recordEvent } from '@/lib/audit';
import { hidingParameters } from '@/lib/shared/sql-errors';
import { sessions, users } from '@/db/schema';
import { sha256Hex } from '@/lib/shared/crypto';
import { getRateLimitStore, secondsUntilReset } from '@/lib/ratelimit';
import type { Principal } from './principal';
import { SIGN_IN_LIMITS } from '@/lib/platform/limits';

export const SESSION_DAYS = 30;
const DAY_MS = 86_400_000;

export interface SessionUser {
  principal: Principal;
  name: string;
  email: string;
}

export type SignInResult =
  | { ok: true; token: string; expiresAt: Date }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

const hashToken = (token: string) => sha256Hex(token);

// Verified against when the e-mail is unknown, so a wrong e-mail costs the same time as a wrong password
// and response times do not tell which accounts exist.
let decoyHash: Promise<string> | undefined;

/** Whose sign-in an event is: a publisher's account, or no account for an admin (the person is the subject). */
const accountOf = (user: { id: string; role: 'publisher' | 'admin' } | undefined) => ({
  accountId: user?.role === 'publisher' ? user.id : null,
  subjectId: user?.id ?? null,
});

/**
 * Checks an e-mail and password and opens a database session under a new token. Only the SHA-256 of the
 * token is stored; the token itself goes to the browser in an HttpOnly cookie. Attempts are throttled per
 * (client address, e-mail) and per client address; a successful sign-in clears its (address, e-mail) count.
 */
export async function signIn(email: string, password: string, clientAddress: string): Promise<SignInResult> {
  const normalized = email.trim().toLowerCase();
  const store = getRateLimitStore();
  const { perAccountAndAddress, perAddress, windowMs } = SIGN_IN_LIMITS;
  // Hashed: the counter's name holds no e-mail address, and no character a store could read as a pattern.
  const pair = `signin:pair:${sha256Hex(`${clientAddress}\n${normalized}`)}`;
  const checks = await Promise.all([
    store.hit(pair, perAccountAndAddress, windowMs),
    store.hit(`signin:addr:${clientAddress}`, perAddress, windowMs),
  ]);
  const blocked = checks.find((c) => !c.success);
  if (blocked) {
    return { ok: false, reason: 'throttled', retryAfterSeconds: secondsUntilReset(store, blocked) };
  }

  const db = await getDb();
  const [user] = await db
    .select({ id: users.id, role: users.role, status: users.status, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, normalized))
    .limit(1);
  const stored = user?.passwordHash ?? (await (decoyHash ??= hash(randomBytes(16).toString('hex'))));
  const valid = await verify(stored, password).catch(() => false);
  // Only an active account signs in; an invited or deactivated one gets the same answer as a wrong password
  // (after the same verification), so the answer tells nothing about the account's state.
  if (!user || !user.passwordHash || !valid || user.status !== 'active') {
    await db.transaction((tx) =>
      recordEvent(
        tx,
        { kind: 'user', id: null, label: normalized, clientAddress },
        { kind: 'sign_in.failed', ...accountOf(user), details: { email: normalized } },
      ),
    );
    return { ok: false, reason: 'invalid' };
  }

  await store.reset(pair, perAccountAndAddress, windowMs);
  const principal: Principal = { userId: user.id, role: user.role, siteScope: null, via: 'session', clientAddress };
  const session = await db.transaction(async (tx) => {
    const opened = await openSession(tx, user.id);
    await recordEvent(tx, actorOf(principal, normalized), { kind: 'sign_in.succeeded', ...accountOf(user) });
    return opened;
  });
  return { ok: true, ...session };
}

/**
 * Opens a session for an account that just proved who it is (a password, an invitation link), in the caller's
 * transaction, and records the sign-in's time. Returns the raw token, for the cookie only.
 */
export async function openSession(tx: Tx, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * DAY_MS);
  await hidingParameters(tx.insert(sessions).values({ tokenHash: hashToken(token), userId, expiresAt }));
  await tx.update(users).set({ lastSignInAt: now }).where(eq(users.id, userId));
  // Housekeeping on the sign-in path, which is rare: drop this user's expired sessions.
  await tx.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, now)));
  return { token, expiresAt };
}

/**
 * The signed-in user of a session token, or null when it is unknown or expired, or its account is not active
 * (deactivation deletes the sessions too; this holds even for one opened in the same instant).
 */
export async function userForSession(token: string): Promise<SessionUser | null> {
  if (!token) return null;
  const db = await getDb();
  const [row] = await hidingParameters(
    db
      .select({ id: users.id, role: users.role, name: users.name, email: users.email })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, new Date()), eq(users.status, 'active')),
      )
      .limit(1),
  );
  if (!row) return null;
  return {
    principal: { userId: row.id, role: row.role, siteScope: null, via: 'session' },
    name: row.name,
    email: row.email,
  };
}

/** Ends every session of the signed-in user, on every device: each of their tokens stops working at once. */
export async function signOutEverywhere(principal: Principal): Promise<void> {
  const db = await getDb();
  await db.delete(sessions).where(eq(sessions.userId, principal.userId));
}

/** Ends a session on the server: the token stops working at once, wherever it was copied. */
export async function signOut(token: string): Promise<void> {
  if (!token) return;
  const db = await getDb();
  await hidingParameters(db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token))));
}

import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { and, eq, gt, lt } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { hidingParameters } from '@/lib/shared/sql-errors';
import { sessions, users } from '@/db/schema';
import { sha256Hex } from '@/lib/shared/crypto';
import { getRateLimitStore, secondsUntilReset } from '@/lib/ratelimit';
import type { Principal } from './principal';

export const SESSION_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * Sign-in attempts allowed within the window per account from one client address, and per client address.
 * Never per account alone: then anyone could lock an owner out by failing on purpose from elsewhere.
 */
export const SIGN_IN_LIMITS = { perAccountAndAddress: 10, perAddress: 30, windowMs: 15 * 60_000 };

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
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, normalized))
    .limit(1);
  const stored = user?.passwordHash ?? (await (decoyHash ??= hash(randomBytes(16).toString('hex'))));
  const valid = await verify(stored, password).catch(() => false);
  if (!user || !user.passwordHash || !valid) return { ok: false, reason: 'invalid' };

  await store.reset(pair, perAccountAndAddress, windowMs);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_DAYS * DAY_MS);
  await hidingParameters(db.insert(sessions).values({ tokenHash: hashToken(token), userId: user.id, expiresAt }));
  // Housekeeping on the sign-in path, which is rare: drop this user's expired sessions.
  await db.delete(sessions).where(and(eq(sessions.userId, user.id), lt(sessions.expiresAt, new Date())));
  return { ok: true, token, expiresAt };
}

/** The signed-in user of a session token, or null when it is unknown or expired. */
export async function userForSession(token: string): Promise<SessionUser | null> {
  if (!token) return null;
  const db = await getDb();
  const [row] = await hidingParameters(
    db
      .select({ id: users.id, role: users.role, name: users.name, email: users.email })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, new Date())))
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

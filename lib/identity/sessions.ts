import { and, eq, gt, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { type Db, getDb, type Tx } from '@/db/client';
import { preparedPerDatabase } from '@/db/prepared';
import { hidingParameters } from '@/lib/shared/sql-errors';
import { memberships, people, sessions, users } from '@/db/schema';
import { sha256Hex } from '@/lib/shared/crypto';
import type { MemberRole, Principal } from '@/lib/access';

/** How long a signed-in session lasts (lib/identity/session-open.ts opens them). */
export const SESSION_DAYS = 30;

/** An account a person may act for, as the account switcher lists it. */
export interface Membership {
  accountId: string;
  accountName: string;
  accountRole: 'publisher' | 'admin';
  role: MemberRole;
  /** A Viewer's sites; null for the whole account. */
  siteIds: string[] | null;
  /** The account requires two-factor sign-in of its members. */
  requiresTwoFactor: boolean;
}

/** The person of a session: the principal they act with, and every account they may switch to. */
export interface SessionPerson {
  principal: Principal;
  personId: string;
  name: string;
  email: string;
  /** Two-factor sign-in is on for this person. */
  twoFactor: boolean;
  memberships: Membership[];
}

/** Only the SHA-256 of a session token is stored. */
export const hashToken = (token: string) => sha256Hex(token);

/** The browser and address a session was opened from, for the list of where one is signed in. */
export interface SessionOrigin {
  clientAddress: string;
  userAgent?: string | null;
}

/**
 * The accounts a person acts for, oldest membership first (the first is where they land): active ones only,
 * unless `activeOnly` is false.
 */
export async function membershipsOf(db: Db | Tx, personId: string, { activeOnly = true } = {}): Promise<Membership[]> {
  return membershipsQuery(db, personId, activeOnly);
}

function membershipsQuery(db: Db | Tx, personId: string | Placeholder, activeOnly: boolean) {
  return db
    .select({
      accountId: memberships.accountId,
      accountName: users.name,
      accountRole: users.role,
      role: memberships.role,
      siteIds: memberships.siteIds,
      requiresTwoFactor: users.requireTwoFactor,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.accountId))
    .where(and(eq(memberships.personId, personId), activeOnly ? eq(users.status, 'active') : undefined))
    .orderBy(memberships.createdAt, memberships.accountId);
}

/** A page's two lookups, the session's person and their accounts (db/prepared.ts). */
const sessionLookup = preparedPerDatabase((db) =>
  db
    .select({
      id: people.id,
      name: people.name,
      email: people.email,
      totpEnabledAt: people.totpEnabledAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(people, eq(people.id, sessions.personId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.expiresAt, sql.placeholder('now')),
        eq(sessions.secondFactorDue, false),
      ),
    )
    .limit(1)
    .prepare('session_by_token'),
);
const activeMemberships = preparedPerDatabase((db) =>
  membershipsQuery(db, sql.placeholder('personId'), true).prepare('active_memberships'),
);

/** The principal of a person acting for one of their accounts, with their role there. */
export const principalOf = (personId: string, membership: Membership, clientAddress?: string): Principal => ({
  userId: membership.accountId,
  role: membership.accountRole,
  personId,
  memberRole: membership.role,
  // A Viewer limited to some sites reads them as a site-scoped key would; every other role reads the account.
  siteScope: membership.role === 'viewer' ? membership.siteIds : null,
  via: 'session',
  ...(clientAddress === undefined ? {} : { clientAddress }),
});

/** A session's `lastSeenAt` is written at most this often: a page view is not worth a write each time. */
const LAST_SEEN_EVERY_MS = 60_000;

/**
 * The person of a session token acting for `accountId` (or their first account when it is not given or not
 * theirs), or null when the token is unknown or expired, or the person has no active account left (removed
 * from it, or it was deactivated: this holds even for a session opened in the same instant).
 */
export async function personForSession(token: string, accountId?: string): Promise<SessionPerson | null> {
  if (!token) return null;
  const db = await getDb();
  // A placeholder's value goes to the driver as it is: postgres.js takes a timestamp as text, not a Date.
  const [row] = await hidingParameters(
    sessionLookup(db).execute({ tokenHash: hashToken(token), now: new Date().toISOString() }),
  );
  if (!row) return null;
  const joined = await activeMemberships(db).execute({ personId: row.id });
  const acting = joined.find((m) => m.accountId === accountId?.toLowerCase()) ?? joined[0];
  if (!acting) return null;
  if (Date.now() - row.lastSeenAt.getTime() > LAST_SEEN_EVERY_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date() })
      .where(eq(sessions.tokenHash, hashToken(token)));
  }
  return {
    principal: principalOf(row.id, acting),
    personId: row.id,
    name: row.name,
    email: row.email,
    twoFactor: row.totpEnabledAt !== null,
    memberships: joined,
  };
}

/**
 * Ends the sessions of those of `personIds` (a subquery or one id) who have no active account left: a person
 * removed from their last account, or all of whose accounts are deactivated. Returns how many ended.
 */
export async function endSessionsWithoutAccount(tx: Tx, personIds: SQL): Promise<number> {
  const ended = await tx
    .delete(sessions)
    .where(
      sql`${sessions.personId} in (${personIds}) and not exists (select 1 from memberships m
        join users u on u.id = m.account_id where m.person_id = ${sessions.personId} and u.status = 'active')`,
    )
    .returning({ personId: sessions.personId });
  return ended.length;
}

/** Ends every session of the signed-in person, on every device: each of their tokens stops working at once. */
export async function signOutEverywhere(principal: Principal): Promise<void> {
  if (!principal.personId) return;
  const db = await getDb();
  await db.delete(sessions).where(eq(sessions.personId, principal.personId));
}

/** Ends a session on the server: the token stops working at once, wherever it was copied. */
export async function signOut(token: string): Promise<void> {
  if (!token) return;
  const db = await getDb();
  await hidingParameters(db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token))));
}

/** An account of theirs requires two-factor sign-in and the person has not set it up yet. */
export const mustSetUpTwoFactor = (person: Pick<SessionPerson, 'twoFactor' | 'memberships'>): boolean =>
  !person.twoFactor && person.memberships.some((m) => m.requiresTwoFactor);

/**
 * Where a person is signed in: their sessions with the browser, the address and when each was last used,
 * and ending any one of them (OWASP session management: the user can see and end their sessions).
 */
import Bowser from 'bowser';
import { and, desc, eq, gt } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { sessions } from '@/db/schema';
import { actorOf, recordEvent } from '@/lib/activity';
import { isUuid } from '@/lib/query';
import { forbidden, notFound } from '@/lib/shared/errors';
import { ownAccountOf, type Principal } from '@/lib/access';
import { hashToken } from './sessions';

export interface SessionEntry {
  id: string;
  /** The browser and system in words ("Chrome 140 on Linux"), or null when the browser said nothing. */
  device: string | null;
  clientAddress: string | null;
  signedInAt: Date;
  lastSeenAt: Date;
  /** The session this list is being looked at from. */
  current: boolean;
}

/** A browser's description in a few words; the major version only. */
export function deviceOf(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const system = parsed.os.name;
  if (!browser && !system) return null;
  return browser && system ? `${browser} on ${system}` : browser || system || null;
}

function personOf(principal: Principal): string {
  if (principal.via !== 'session' || !principal.personId || principal.viewedBy) {
    throw forbidden('Sessions are listed and ended by the person signed in, for themselves.');
  }
  return principal.personId;
}

/** The person's signed-in sessions (not those waiting for a second factor), the most recently used first. */
export async function listSessions(principal: Principal, currentToken: string): Promise<SessionEntry[]> {
  const personId = personOf(principal);
  const db = await getDb();
  const rows = await db
    .select({
      id: sessions.id,
      tokenHash: sessions.tokenHash,
      userAgent: sessions.userAgent,
      clientAddress: sessions.clientAddress,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(
      and(eq(sessions.personId, personId), eq(sessions.secondFactorDue, false), gt(sessions.expiresAt, new Date())),
    )
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  const current = hashToken(currentToken);
  return rows.map((row) => ({
    id: row.id,
    device: deviceOf(row.userAgent),
    clientAddress: row.clientAddress,
    signedInAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    current: row.tokenHash === current,
  }));
}

/** Ends one of the person's sessions by its id: that browser is signed out at its next request. Logged. */
export async function endSession(principal: Principal, sessionId: string): Promise<void> {
  const personId = personOf(principal);
  if (!isUuid(sessionId)) throw notFound(`No session with id ${sessionId}.`);
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [ended] = await tx
      .delete(sessions)
      .where(and(eq(sessions.id, sessionId.toLowerCase()), eq(sessions.personId, personId)))
      .returning({ id: sessions.id, clientAddress: sessions.clientAddress, userAgent: sessions.userAgent });
    if (!ended) throw notFound(`No session with id ${sessionId}.`);
    await recordEvent(tx, actorOf(principal), {
      kind: 'session.ended',
      accountId: ownAccountOf(principal),
      subjectId: personId,
      details: { device: deviceOf(ended.userAgent), clientAddress: ended.clientAddress },
    });
  });
}

import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { users } from '@/db/schema';
import { notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/query';
import { isPublisherAccount, type Principal, requireOperator } from '@/lib/access';
import { actorOf, recordEventUnlessRecent } from '@/lib/activity';

/** An admin's viewing of one publisher is one event per half hour, however many pages it opens. */
const VIEWING_SITTING_MS = 30 * 60_000;

export interface AccountSummary {
  id: string;
  email: string;
  name: string;
  role: 'publisher' | 'admin';
}

/** Emails are stored lower-cased, so lookups are case-insensitive. */
export async function findAccountByEmail(email: string): Promise<AccountSummary | null> {
  const db = await getDb();
  const [user] = await db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .limit(1);
  return user ?? null;
}

/** Publisher accounts, for an admin choosing whom to create a key for. */
export async function listPublishers(principal: Principal): Promise<AccountSummary[]> {
  requireOperator(principal, 'operate', 'Listing publisher accounts');
  const db = await getDb();
  return db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role })
    .from(users)
    .where(eq(users.role, 'publisher'))
    .orderBy(users.name, users.id);
}

/** A publisher account by id; anything else (an admin, an unknown or malformed id) is not found. */
export async function requirePublisher(userId: string): Promise<AccountSummary> {
  const db = await getDb();
  const [user] = isUuid(userId)
    ? await db
        .select({ id: users.id, email: users.email, name: users.name, role: users.role })
        .from(users)
        .where(eq(users.id, userId.toLowerCase()))
    : [];
  if (!user || !isPublisherAccount(user)) throw notFound(`No publisher account with id ${userId}.`);
  return user;
}

/**
 * An admin's read-only view of a publisher's dashboard: the publisher's principal, marked as viewed by the
 * admin, so every report answers as it would for the publisher and every write refuses it (requireWritable).
 */
export async function viewAsPublisher(
  principal: Principal,
  publisherId: string,
): Promise<{ principal: Principal; publisher: AccountSummary }> {
  requireOperator(principal, 'operate', 'Viewing a publisher’s dashboard');
  const publisher = await requirePublisher(publisherId);
  const event = { kind: 'admin.viewed_as', accountId: publisher.id, subjectId: publisher.id } as const;
  await recordEventUnlessRecent(await getDb(), actorOf(principal), event, VIEWING_SITTING_MS);
  return {
    publisher,
    principal: {
      userId: publisher.id,
      role: 'publisher',
      siteScope: null,
      via: 'session',
      viewedBy: principal.personId ?? principal.userId,
      clientAddress: principal.clientAddress,
    },
  };
}

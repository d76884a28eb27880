/**
 * Publisher accounts as admins manage them: create (invited, no password), list, deactivate, reactivate.
 * An admin never sees or sets a password; every change is in the activity log, written in the same
 * transaction as the change.
 */
import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { getDb, type Tx } from '@/db/client';
import { apiKeys, memberships, users, type User } from '@/db/schema';
import { actorOf, recordEvent } from '@/lib/activity';
import {
  filterToSql,
  isUuid,
  pagedRowsQueryOf,
  pageMeta,
  pageOffset,
  searchToSql,
  type Paged,
  type PagedRowsInput,
} from '@/lib/query';
import { fieldsOf } from '@/lib/query/fields';
import { conflict, notFound } from '@/lib/shared/errors';
import { sendInvitation } from './invitations';
import { endSessionsWithoutAccount, issueToken, queueResetLink } from '@/lib/identity';
import { type Principal, requireOperator, requireWritable } from '@/lib/access';
import { PublisherResponse, type CreatePublisherInput } from './schemas';
import { requirePublisher } from './users';
import { ownersOf } from './members';

/** Managing accounts is the operator's, with a session or an account-level key. */
function requireAdmin(principal: Principal, operation: string): void {
  requireOperator(principal, 'operate', operation);
  requireWritable(principal);
}

/** The fields of PublisherResponse as the query grammar sees them (sortBy, Filter, FilterList). */
const PUBLISHER_FIELDS = fieldsOf(PublisherResponse);

/** GET /api/v1/admin/publishers' parameters: page, pageSize, sortBy, sortDirection, Search, Filter, FilterList. */
export const publishersQuery = pagedRowsQueryOf(
  PUBLISHER_FIELDS,
  'Case-insensitive text: matches the name or the e-mail.',
  {
    filter: 'sites>0;createdAt>=2026-01-01',
    filterList: { status: 'invited,deactivated' },
  },
);

// A correlated count, usable in the select list, WHERE and ORDER BY alike. Written out: inside a select from
// users drizzle leaves column names unqualified, and `id` would be the site's.
const siteCount = sql<number>`(select count(*)::int from sites s where s.user_id = ${sql.raw('"users"."id"')})`;
const lastSignIn =
  sql<Date | null>`(select max(p.last_sign_in_at) from memberships m join people p on p.id = m.person_id
  where m.account_id = ${sql.raw('"users"."id"')})`.mapWith(users.createdAt);

/** The row's fields by their API names: what is selected, filtered and sorted on. */
const COLUMNS = {
  id: users.id,
  name: users.name,
  email: users.email,
  status: users.status,
  sites: siteCount,
  lastSignInAt: lastSignIn,
  createdAt: users.createdAt,
};
type PublisherRow = Pick<User, 'id' | 'name' | 'email' | 'status' | 'createdAt'> & {
  sites: number;
  lastSignInAt: Date | null;
};

const toResponse = (row: PublisherRow): PublisherResponse => ({
  id: row.id,
  name: row.name,
  email: row.email,
  status: row.status,
  sites: Number(row.sites),
  lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

/** Publisher accounts, paged, sorted (by name by default) and filtered with the reports' grammar. */
export async function listPublisherAccounts(
  principal: Principal,
  input: PagedRowsInput,
): Promise<Paged<PublisherResponse>> {
  requireAdmin(principal, 'Listing publisher accounts');
  const where = and(
    eq(users.role, 'publisher'),
    filterToSql(input.filter, COLUMNS),
    input.search ? searchToSql(input.search, [users.name, users.email]) : undefined,
  );
  const dir = input.sortDirection === 'desc' ? desc : asc;
  const order = input.sortBy
    ? [dir(COLUMNS[input.sortBy as keyof typeof COLUMNS]), dir(users.id)]
    : [asc(users.name), asc(users.id)];
  const db = await getDb();
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(COLUMNS)
      .from(users)
      .where(where)
      .orderBy(...order)
      .limit(input.pageSize)
      .offset(pageOffset(input)),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { data: rows.map(toResponse), meta: pageMeta(input, total) };
}

/** The publisher account with that id, locked for the caller's change; an admin's, unknown or malformed id: 404. */
async function lockPublisher(tx: Tx, id: string): Promise<PublisherRow> {
  if (!isUuid(id)) throw notFound(`No publisher account with id ${id}.`);
  const [row] = await tx
    .select(COLUMNS)
    .from(users)
    .where(and(eq(users.id, id.toLowerCase()), eq(users.role, 'publisher')))
    .for('update', { of: users });
  if (!row) throw notFound(`No publisher account with id ${id}.`);
  return row;
}

/**
 * Creates a publisher account, `invited` and without a password, and queues its invitation e-mail, all in one
 * transaction. The invitation link goes only into the e-mail: neither the API nor the Publishers page shows it.
 */
export async function createPublisher(
  principal: Principal,
  input: CreatePublisherInput,
): Promise<{ publisher: PublisherResponse }> {
  requireAdmin(principal, 'Creating publisher accounts');
  const email = input.email.trim().toLowerCase();
  const db = await getDb();
  return db.transaction(async (tx) => {
    // E-mails are stored lower-cased and unique: the conflict clause answers a concurrent twin as well.
    const [created] = await tx
      .insert(users)
      .values({ email, name: input.name, role: 'publisher', status: 'invited' })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (!created) throw conflict(`email: ${email} is already the e-mail of an account.`);
    await recordEvent(tx, actorOf(principal), {
      kind: 'account.created',
      accountId: created.id,
      subjectId: created.id,
      details: { email, name: input.name },
    });
    const row = await lockPublisher(tx, created.id);
    await inviteOwner(tx, principal, row);
    return { publisher: toResponse(row) };
  });
}

/** The invitation of a new account's first Owner, e-mailed to the account's address. */
const inviteOwner = (tx: Tx, principal: Principal, row: PublisherRow) =>
  sendInvitation(tx, principal, { account: { ...row, role: 'publisher' }, email: row.email, role: 'owner' });

/** Sends a new invitation to an account that has not accepted one yet; the earlier link stops working. */
export async function resendInvitation(principal: Principal, id: string): Promise<{ publisher: PublisherResponse }> {
  requireAdmin(principal, 'Sending invitations');
  const db = await getDb();
  return db.transaction(async (tx) => {
    const row = await lockPublisher(tx, id);
    if (row.status !== 'invited') {
      throw conflict(`The account is ${row.status}, not invited: only an invited account gets an invitation.`);
    }
    await inviteOwner(tx, principal, row);
    return { publisher: toResponse(row) };
  });
}

/**
 * Shuts an account out at once: status `deactivated` (no member acts for it from their next request on; the
 * sessions of members with no other active account are deleted), every active API key revoked
 * (revoked_at set, not only refused by status: the keys page then shows them revoked, and a reactivation
 * cannot bring a key back to life by accident). Sites, revenue and the log stay.
 */
export async function deactivatePublisher(principal: Principal, id: string): Promise<PublisherResponse> {
  requireAdmin(principal, 'Deactivating accounts');
  const db = await getDb();
  return db.transaction(async (tx) => {
    const row = await lockPublisher(tx, id);
    if (row.status === 'deactivated') throw conflict('The account is already deactivated.');
    await tx.update(users).set({ status: 'deactivated' }).where(eq(users.id, row.id));
    const ended = await endSessionsWithoutAccount(
      tx,
      sql`select person_id from memberships where account_id = ${row.id}`,
    );
    const revoked = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.userId, row.id), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    await recordEvent(tx, actorOf(principal), {
      kind: 'account.deactivated',
      accountId: row.id,
      subjectId: row.id,
      details: { previousStatus: row.status, sessionsEnded: ended, keysRevoked: revoked.length },
    });
    return toResponse({ ...row, status: 'deactivated' });
  });
}

/**
 * Lets a deactivated account back in: `active`, or `invited` when nobody ever joined it (it then needs a new
 * invitation). Keys revoked and sessions ended at deactivation stay so.
 */
export async function reactivatePublisher(principal: Principal, id: string): Promise<PublisherResponse> {
  requireAdmin(principal, 'Reactivating accounts');
  const db = await getDb();
  return db.transaction(async (tx) => {
    const row = await lockPublisher(tx, id);
    if (row.status !== 'deactivated') throw conflict(`The account is ${row.status}, not deactivated.`);
    const [{ members }] = await tx
      .select({ members: count() })
      .from(memberships)
      .where(eq(memberships.accountId, row.id));
    const status = members > 0 ? 'active' : 'invited';
    await tx.update(users).set({ status }).where(eq(users.id, row.id));
    await recordEvent(tx, actorOf(principal), {
      kind: 'account.reactivated',
      accountId: row.id,
      subjectId: row.id,
      details: { status },
    });
    return toResponse({ ...row, status });
  });
}

/**
 * An administrator sends the Owners of a publisher account a reset link each (the Publishers page). The links go
 * by e-mail only: the administrator never sees them. An invited or deactivated account gets none: 409 says what
 * to do instead.
 */
export async function sendPasswordResetAsOperator(principal: Principal, userId: string): Promise<{ sentTo: string }> {
  requireOperator(principal, 'operate', 'Sending a password reset link');
  requireWritable(principal);
  const publisher = await requirePublisher(userId);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [account] = await tx.select({ status: users.status }).from(users).where(eq(users.id, publisher.id));
    if (account.status === 'invited') {
      throw conflict(`${publisher.email} has not accepted the invitation yet: send the invitation again instead.`);
    }
    if (account.status === 'deactivated') {
      throw conflict(`${publisher.email} is deactivated: reactivate the account first.`);
    }
    const owners = await ownersOf(tx, publisher.id);
    for (const owner of owners) {
      const token = await issueToken(tx, owner.id, 'password_reset');
      await queueResetLink(tx, owner, token, true);
      await recordEvent(tx, actorOf(principal), {
        kind: 'password.reset_requested',
        accountId: publisher.id,
        subjectId: owner.id,
        details: { sentBy: 'admin' },
      });
    }
    return { sentTo: owners.map((o) => o.email).join(', ') };
  });
}

/**
 * Sites and their review: a publisher adds a site (pending), an admin moves it along the review's transitions
 * (site-rules.ts) or sends it back with a reason; names, addresses and engines are edited; a site without
 * revenue is deleted. Every change is an event of the activity log, written in the change's transaction:
 * the log is the site's history (site-history.ts).
 */
import { and, count, eq, sql } from 'drizzle-orm';
import { getDb, type Tx } from '@/db/client';
import { revenueDaily, sites, users, type Site } from '@/db/schema';
import { actorOf, recordEvent } from '@/lib/activity';
import { badRequest, conflict, forbidden, notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/query';

import {
  type Principal,
  isOperator,
  requirePublisherAccount,
  requireAbility,
  requireOperator,
  requireAccountLevel,
  requireWritable,
} from '@/lib/access';
import type { ManagedSiteResponse } from './schemas';
import {
  allowedTransitions,
  isAllowedTransition,
  type AddSiteInput,
  type CreateSiteInput,
  type SiteStatus,
  type UpdateSiteInput,
} from './site-rules';
import { requirePublisher } from '@/lib/accounts';
import { toSiteResponse } from './sites';
import { alertOnEvents } from '@/lib/alerts';

export function toManagedSite(s: Site): ManagedSiteResponse {
  return {
    ...toSiteResponse(s),
    publisherId: s.userId,
    statusReason: s.statusReason,
  };
}

/** A site's own account writes with an Owner's or Admin's session or an account-level key; an admin to any site. */
function requireSiteWriter(principal: Principal, what: string): void {
  requireAbility(principal, 'manageSites', what);
  requireAccountLevel(principal, what);
  requireWritable(principal);
}

/** Unknown, malformed and other publishers' ids answer alike: nothing says a site exists elsewhere. */
const noSuchSite = (siteId: string) => notFound(`No site with id ${siteId}.`);

/**
 * The site as the principal may change it, locked until the transaction ends, so that concurrent reviews
 * of one site happen one after another and each event's `from` is what the site was.
 */
async function lockSite(tx: Tx, principal: Principal, siteId: string): Promise<Site> {
  if (!isUuid(siteId)) throw noSuchSite(siteId);
  const [site] = await tx
    .select()
    .from(sites)
    .where(
      and(eq(sites.id, siteId.toLowerCase()), isOperator(principal) ? undefined : eq(sites.userId, principal.userId)),
    )
    .for('update');
  if (!site) throw noSuchSite(siteId);
  return site;
}

/** Sites a publisher may have waiting for review: a leaked session cannot fill the queue without end. */
export const MAX_PENDING_SITES = 20;

async function insertSite(
  principal: Principal,
  ownerId: string,
  fields: AddSiteInput & { status: SiteStatus },
): Promise<ManagedSiteResponse> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    if (!isOperator(principal)) {
      // The owner's row lock makes concurrent additions count one after another, so the cap is exact.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, ownerId)).for('update');
      const [{ waiting }] = await tx
        .select({ waiting: count() })
        .from(sites)
        .where(and(eq(sites.userId, ownerId), eq(sites.status, 'pending')));
      if (waiting >= MAX_PENDING_SITES) {
        throw conflict(
          `The account already has ${MAX_PENDING_SITES} sites waiting for review, the most it may; ` +
            'wait for a review or delete one first.',
        );
      }
    }
    const [site] = await tx
      .insert(sites)
      .values({ userId: ownerId, ...fields })
      .returning();
    await recordEvent(tx, actorOf(principal), {
      kind: 'site.created',
      accountId: ownerId,
      subjectId: site.id,
      details: { name: site.name, url: site.url, framework: site.framework, to: site.status },
    });
    return toManagedSite(site);
  });
}

/** A publisher adds a site of its own; it waits for review as pending. */
export async function addSite(principal: Principal, input: AddSiteInput): Promise<ManagedSiteResponse> {
  requireSiteWriter(principal, 'Adding a site');
  requirePublisherAccount(principal, 'Admins own no sites: create the site for a publisher instead.');
  return insertSite(principal, principal.userId, { ...input, status: 'pending' });
}

/** An admin creates a site for a publisher, pending unless said otherwise (an existing game may start live). */
export async function createSite(principal: Principal, input: CreateSiteInput): Promise<ManagedSiteResponse> {
  requireOperator(principal, 'operate', 'Creating a site for a publisher');
  const { publisherId, status, ...fields } = input;
  try {
    await requirePublisher(publisherId);
  } catch {
    throw badRequest('publisherId', `no publisher account with id ${publisherId}`);
  }
  return insertSite(principal, publisherId, { ...fields, status: status ?? 'pending' });
}

const EDITABLE = ['name', 'url', 'framework'] as const;

/** The status part of a change, checked: where the site goes and why, or null when its status stays. */
function statusMove(principal: Principal, site: Site, input: UpdateSiteInput) {
  const { status, statusReason } = input;
  if (status === undefined && statusReason === undefined) return null;
  if (!isOperator(principal)) throw forbidden('Only an admin reviews sites: status and statusReason are theirs.');
  if (status !== 'pending' && statusReason !== undefined) {
    throw badRequest('statusReason', 'is only for sending a site back: send it with status "pending"');
  }
  if (status === 'pending' && statusReason === undefined) {
    throw badRequest('statusReason', 'is required with status "pending": the publisher is shown why');
  }
  const from: SiteStatus = site.status ?? 'pending';
  const to = status!;
  // Setting the status a site already has changes nothing (a retried request); sending back always counts.
  if (to === from && to !== 'pending') return null;
  if (!isAllowedTransition(from, to)) {
    throw conflict(
      `status: a ${from} site cannot become ${to}; from ${from} it may become ${allowedTransitions(from).join(' or ')}.`,
    );
  }
  return { from, to, reason: to === 'pending' ? statusReason! : null };
}

/** An admin changes any site: its status (the review) and its fields. */
export async function updateSite(
  principal: Principal,
  siteId: string,
  input: UpdateSiteInput,
): Promise<ManagedSiteResponse> {
  requireOperator(principal, 'operate', 'Reviewing a site');
  return changeSite(principal, siteId, input);
}

/**
 * A publisher edits its own site while it is still pending: once reviewed, an address changed without a new
 * review would skip it.
 */
export async function editOwnSite(
  principal: Principal,
  siteId: string,
  input: Pick<UpdateSiteInput, (typeof EDITABLE)[number]>,
): Promise<ManagedSiteResponse> {
  requireSiteWriter(principal, 'Changing a site');
  requirePublisherAccount(principal, 'Admins review sites from the review queue.');
  return changeSite(principal, siteId, { name: input.name, url: input.url, framework: input.framework });
}

async function changeSite(principal: Principal, siteId: string, input: UpdateSiteInput): Promise<ManagedSiteResponse> {
  if (Object.values(input).every((v) => v === undefined)) {
    throw badRequest('body', `send at least one of status, statusReason, ${EDITABLE.join(', ')}`);
  }
  const db = await getDb();
  return db.transaction(async (tx) => {
    const site = await lockSite(tx, principal, siteId);
    const move = statusMove(principal, site, input);
    if (!isOperator(principal) && site.status !== 'pending') {
      throw forbidden(`This site is ${site.status}: only an admin can change it now.`);
    }
    const changes = Object.fromEntries(
      EDITABLE.flatMap((f) =>
        input[f] !== undefined && input[f] !== site[f] ? [[f, { from: site[f], to: input[f] }]] : [],
      ),
    );
    if (!move && Object.keys(changes).length === 0) return toManagedSite(site);
    const [updated] = await tx
      .update(sites)
      .set({
        ...Object.fromEntries(Object.entries(changes).map(([f, c]) => [f, c.to])),
        ...(move ? { status: move.to, statusReason: move.reason } : {}),
      })
      .where(eq(sites.id, site.id))
      .returning();
    const actor = actorOf(principal);
    const event = { accountId: site.userId, subjectId: site.id };
    if (Object.keys(changes).length > 0) {
      await recordEvent(tx, actor, { ...event, kind: 'site.updated', details: { changes } });
    }
    if (move) {
      const moved = { ...event, kind: 'site.status_changed' as const, details: move };
      await recordEvent(tx, actor, moved);
      await alertOnEvents(tx, [moved]);
    }
    return toManagedSite(updated);
  });
}

/**
 * Deletes a site that has no revenue. With revenue it stays: its rows would go with it, and reports of past
 * months would change. The row lock keeps an import from adding revenue between the check and the delete.
 */
export async function deleteSite(principal: Principal, siteId: string): Promise<void> {
  requireSiteWriter(principal, 'Deleting a site');
  const db = await getDb();
  await db.transaction(async (tx) => {
    const site = await lockSite(tx, principal, siteId);
    const [revenue] = await tx
      .select({ one: sql<number>`1` })
      .from(revenueDaily)
      .where(eq(revenueDaily.siteId, site.id))
      .limit(1);
    if (revenue) {
      throw conflict(
        `Site ${site.name ?? site.id} has revenue, so it cannot be deleted: its revenue would be deleted with it.`,
      );
    }
    await tx.delete(sites).where(eq(sites.id, site.id));
    await recordEvent(tx, actorOf(principal), {
      kind: 'site.deleted',
      accountId: site.userId,
      subjectId: site.id,
      details: { name: site.name, url: site.url, from: site.status },
    });
  });
}

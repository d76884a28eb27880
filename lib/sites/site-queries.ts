/** Reading sites for their review: the admin's queue, a publisher's own sites, and a site's history. */
import { and, asc, count, desc, eq, inArray, like, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { getDb } from '@/db/client';
import { auditEvents, revenueRollup, sites, users } from '@/db/schema';
import {
  filterToSql,
  isUuid,
  pageMeta,
  pageOffset,
  pagedRowsQueryOf,
  searchToSql,
  type Paged,
  type PagedRowsInput,
} from '@/lib/query';
import { fieldsOf } from '@/lib/query/fields';
import { type Principal, isOperator, requireOperator } from '@/lib/access';
import { ManagedSiteResponse } from './schemas';
import { toManagedSite } from './site-admin';
import type { SiteStatus } from './site-rules';

export interface ReviewedSite extends ManagedSiteResponse {
  publisherName: string;
  publisherEmail: string;
  /** Whether any revenue row names the site: then it cannot be deleted. */
  hasRevenue: boolean;
}

/**
 * From the rollup, whose site-month rows exist exactly while daily rows do (their count reaching 0 removes them): one
 * probe of its key, where a probe of revenue_daily is planned over every month's partition (2.5 ms a page).
 */
const hasRevenue = sql<boolean>`exists (select 1 from ${revenueRollup} where ${revenueRollup.userId} = ${sites.userId}
  and ${revenueRollup.grain} = 'm' and ${revenueRollup.siteId} = ${sites.id} and ${revenueRollup.country} is null)`;
/** The queue's order: what waits for review first, oldest first, so nothing waits for ever. */
const statusRank = sql`case ${sites.status} when 'pending' then 0 when 'approved' then 1 else 2 end`;

type Order = (SQL | AnyPgColumn)[];
const QUEUE_ORDER: Order = [statusRank, asc(sites.createdAt)];

async function selectSites(where: SQL | undefined, order: Order, page?: { limit: number; offset: number }) {
  const db = await getDb();
  const query = db
    .select({ site: sites, publisherName: users.name, publisherEmail: users.email, hasRevenue })
    .from(sites)
    .innerJoin(users, eq(users.id, sites.userId))
    .where(where)
    .orderBy(...order, asc(sites.id));
  const rows = await (page ? query.limit(page.limit).offset(page.offset) : query);
  return rows.map((r): ReviewedSite => ({
    ...toManagedSite(r.site),
    publisherName: r.publisherName,
    publisherEmail: r.publisherEmail,
    hasRevenue: r.hasRevenue,
  }));
}

/**
 * The account's own sites with their review status and reason (also for an admin viewing as the publisher), all
 * of them or one page (the Sites page shows a page: a hundred sites' revenue checks cost 7 ms).
 */
export async function listOwnSites(
  principal: Principal,
  page?: { limit: number; offset: number },
): Promise<ReviewedSite[]> {
  // A site-scoped key or a Viewer limited to some sites sees those alone.
  const scope = principal.siteScope ? inArray(sites.id, principal.siteScope) : undefined;
  return selectSites(and(eq(sites.userId, principal.userId), scope), QUEUE_ORDER, page);
}

export interface SiteHistoryEntry {
  at: string;
  kind: 'site.created' | 'site.updated' | 'site.status_changed' | 'site.deleted';
  /** The status before and after: site.created has only `to`, site.deleted only `from`. */
  from: SiteStatus | null;
  to: SiteStatus | null;
  reason: string | null;
  /** The fields a site.updated changed. */
  changed: string[];
  actorKind: 'user' | 'key' | 'admin' | 'system';
  /** Who acted (an e-mail, a key's prefix); a publisher is not shown an admin's. */
  actorLabel: string | null;
}

const statusOf = (value: unknown): SiteStatus | null =>
  value === 'pending' || value === 'approved' || value === 'live' ? value : null;

/**
 * Sites' histories, oldest first, read from the activity log (its subject index): each site's creation, edits,
 * every status change with its reason, its deletion. A publisher sees the events of its own account only.
 */
export async function siteHistories(principal: Principal, siteIds: string[]): Promise<Map<string, SiteHistoryEntry[]>> {
  const ids = siteIds.filter(isUuid).map((id) => id.toLowerCase());
  const histories = new Map(ids.map((id) => [id, [] as SiteHistoryEntry[]]));
  if (ids.length === 0) return histories;
  const db = await getDb();
  // The operator reviews every account's sites; anyone else (an operator's Viewer too) reads its own account's.
  const admin = isOperator(principal);
  const rows = await db
    .select()
    .from(auditEvents)
    .where(
      and(
        inArray(auditEvents.subjectId, ids),
        like(auditEvents.kind, 'site.%'),
        admin ? undefined : eq(auditEvents.accountId, principal.userId),
      ),
    )
    // By id, the order events were appended in: `at` is when each transaction began, and one that waited for
    // another's lock on the site began earlier than the change it records.
    .orderBy(asc(auditEvents.id));
  for (const e of rows) {
    histories.get(e.subjectId!)?.push({
      at: e.at.toISOString(),
      kind: e.kind as SiteHistoryEntry['kind'],
      from: statusOf(e.details.from),
      to: statusOf(e.details.to),
      reason: typeof e.details.reason === 'string' ? e.details.reason : null,
      changed: Object.keys((e.details.changes as Record<string, unknown> | undefined) ?? {}),
      actorKind: e.actorKind,
      actorLabel: admin || e.actorKind !== 'admin' ? e.actorLabel : null,
    });
  }
  return histories;
}

/** One site's history (siteHistories). */
export async function siteHistory(principal: Principal, siteId: string): Promise<SiteHistoryEntry[]> {
  return (await siteHistories(principal, [siteId])).get(siteId.toLowerCase()) ?? [];
}

/** The fields the API's site list sorts and filters by: ManagedSiteResponse's (its status as text). */
const SITE_FIELDS = fieldsOf(ManagedSiteResponse);
const SITE_COLUMNS: Record<string, SQLWrapper> = {
  siteId: sites.id,
  name: sites.name,
  url: sites.url,
  framework: sites.framework,
  status: sites.status,
  dailyActiveUsers: sites.dailyActiveUsers,
  monthlyActiveUsers: sites.monthlyActiveUsers,
  createdAt: sites.createdAt,
  publisherId: sites.userId,
  statusReason: sites.statusReason,
};
export const SITE_CSV_COLUMNS = SITE_FIELDS.map((f) => f.name);

/** The API's review queue: page, pageSize, sortBy, sortDirection, Filter, FilterList (`FilterList[status]=pending`), Search. */
export const siteListQuery = pagedRowsQueryOf(SITE_FIELDS, 'Case-insensitive text: matches the name or the URL.', {
  filter: 'status==pending;createdAt>=2026-11-01',
  filterList: { status: 'pending,approved' },
});

/** The list's rows and order by the grammar: pending first, oldest first, unless sorted otherwise; Search looks in names and URLs. */
function listSelection(input: PagedRowsInput): { where: SQL | undefined; order: Order } {
  const where = and(
    filterToSql(input.filter, SITE_COLUMNS),
    input.search ? searchToSql(input.search, [sites.name, sites.url]) : undefined,
  );
  const direction = input.sortDirection === 'desc' ? desc : asc;
  const order = input.sortBy ? [direction(SITE_COLUMNS[input.sortBy] as typeof sites.id)] : QUEUE_ORDER;
  return { where, order };
}

/** Every publisher's sites for an operator, a page of them (GET /api/v1/admin/sites). */
export async function listManagedSites(
  principal: Principal,
  input: PagedRowsInput,
): Promise<Paged<ManagedSiteResponse>> {
  requireOperator(principal, 'operate', 'Listing every site');
  const { where, order } = listSelection(input);
  const db = await getDb();
  const [[{ total }], rows] = await Promise.all([
    db.select({ total: count() }).from(sites).where(where),
    db
      .select()
      .from(sites)
      .where(where)
      .orderBy(...order, asc(sites.id))
      .limit(input.pageSize)
      .offset(pageOffset(input)),
  ]);
  return { data: rows.map(toManagedSite), meta: pageMeta(input, total) };
}

/**
 * The review queue (the Site review page): the same list, by the same grammar, with each site's publisher and
 * whether revenue names it (then it cannot be deleted).
 */
export async function listSitesForReview(principal: Principal, input: PagedRowsInput): Promise<Paged<ReviewedSite>> {
  requireOperator(principal, 'operate', 'The review queue');
  const { where, order } = listSelection(input);
  const db = await getDb();
  const [[{ total }], data] = await Promise.all([
    db.select({ total: count() }).from(sites).where(where),
    selectSites(where, order, { limit: input.pageSize, offset: pageOffset(input) }),
  ]);
  return { data, meta: pageMeta(input, total) };
}

/**
 * The rows' selection, shared by their paged endpoints and the bulk export: which rows of revenue_daily
 * (account, Filter, Search), in which order, with which site fields. Paging and output are the callers'.
 */
import { and, asc, desc, eq, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { type Db } from '@/db/client';
import { revenueDaily, sites } from '@/db/schema';
import { countryCodesMatching } from '@/lib/shared/countries';
import { filterToSql, searchToSql, type FilterExpr, type Paging } from '@/lib/query';
import { rowFilterColumns, rowSortColumns } from './field-sql';
import type { RowField } from './fields';
import type { SearchMatch } from './rows-count';
import type { RevenueRow } from './responses';

/** What the rows were asked for, once parsed. */
export interface RowsRequest {
  userId: string;
  filter: FilterExpr;
  search: string | null;
  sortBy: string | null;
  sortDirection: Paging['sortDirection'];
}

export interface RowsSelection {
  where: SQL;
  orderBy: SQL[];
  /** Search's matches, resolved to countries and site ids (null without Search). */
  matched: SearchMatch | null;
  /** True when the Filter names a field that lives on sites (the join is needed to count). */
  usesSites: boolean;
}

/** Row fields that live on sites rather than on revenue_daily (filtering or sorting by them needs the join). */
export const SITE_FIELDS = new Set<string>(['gameName', 'adUnitId'] satisfies RowField[]);

/**
 * Search on the rows matches the country (code or English name) or the site's name. The few matching sites
 * are looked up first, so the rows are filtered by ids instead of joining and comparing names row by row.
 */
async function matchSearch(db: Db, userId: string, search: string): Promise<SearchMatch> {
  const named = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(eq(sites.userId, userId), searchToSql(search, [sites.name])));
  return { countries: countryCodesMatching(search), siteIds: named.map((site) => site.id) };
}

function searchCondition(match: SearchMatch): SQL {
  const matches = [
    match.countries.length > 0 ? inArray(revenueDaily.country, match.countries) : undefined,
    match.siteIds.length > 0 ? inArray(revenueDaily.siteId, match.siteIds) : undefined,
  ].filter((m) => m !== undefined);
  return matches.length > 0 ? or(...matches)! : sql`false`;
}

/**
 * ORDER BY the requested field, then the tie-breakers, all in the requested direction: the order is total
 * (pages never overlap), and a descending order can walk the same index backwards.
 */
export function orderBy(sortDirection: Paging['sortDirection'], primary: SQLWrapper, tieBreakers: SQLWrapper[]): SQL[] {
  const direction = sortDirection === 'desc' ? desc : asc;
  return [primary, ...tieBreakers].map((c) => direction(c));
}

export async function selectRows(db: Db, request: RowsRequest): Promise<RowsSelection> {
  const matched = request.search ? await matchSearch(db, request.userId, request.search) : null;
  const where = and(
    eq(revenueDaily.userId, request.userId),
    filterToSql(request.filter, rowFilterColumns),
    matched ? searchCondition(matched) : undefined,
  )!;
  // sortBy is a field's name: the grammar takes no other.
  const primary = rowSortColumns[(request.sortBy ?? 'createdAt') as RowField];
  return {
    where,
    orderBy: orderBy(request.sortDirection, primary, [revenueDaily.day, revenueDaily.siteId, revenueDaily.country]),
    matched,
    usesSites: request.filter.some((group) => group.some((t) => SITE_FIELDS.has(t.field))),
  };
}

const d = revenueDaily;
/** The columns a row is read with (RevenueRow): the daily row's own and its site's fields. */
export const rowColumns = {
  siteId: d.siteId,
  userId: d.userId,
  day: d.day,
  country: d.country,
  impressions: d.impressions,
  clicks: d.clicks,
  adRequests: d.adRequests,
  revenueMicros: d.revenueMicros,
  updatedAt: d.updatedAt,
  adUnitId: rowFilterColumns.adUnitId as SQL<string | null>,
  gameName: sites.name,
} satisfies Record<keyof RevenueRow, SQLWrapper>;

import { and, count, eq, gte, inArray, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { getReadDb } from '@/db/client';
import { revenueDaily, sites } from '@/db/schema';
import { countryCodesMatching } from '@/lib/shared/countries';
import {
  filterToSql,
  pageMeta,
  pageOffset,
  resolveRange,
  searchToSql,
  todayUtc,
  type DateRange,
  type Paged,
  type PagedRowsInput,
  type SiteDayInput,
} from '@/lib/query';
import { readableSites, requireAccountLevel, type Principal } from '@/lib/access';
import { aggregates, byCountryColumns } from './field-sql';
import { byCountryFields, rowFields, type ByCountryField } from './fields';
import { countAndLocate } from './rows-count';
import { rowColumns, orderBy, selectRows } from './rows-query';
import { revenue, revenueSource } from './revenue-source';
import { cachedReport } from './result-cache';
import { byCountryResponse, rowResponse, totalsResponse, type CountrySums, type RevenueRow } from './responses';
import type { RevenueByCountryResponse, RevenueRowResponse, RevenueTotalResponse } from './schemas';

/** A report's sites and days; the dashboard's views may narrow it to one viewer country (not in the API). */
export type ReportInput = SiteDayInput & { country?: string | null };

export type ByCountryInput = ReportInput & PagedRowsInput;

/**
 * The sites and days a report covers: the sites after scope checks (readableSites), and the range with the
 * account's default_range_days for the ends the request left out. The one place a default range is decided,
 * for the API and the dashboard alike.
 */
export async function reportScope(principal: Principal, input: ReportInput) {
  const { siteIds, otherSiteIds, defaultRangeDays, dataVersion } = await readableSites(principal, input.siteIds);
  const range: DateRange = resolveRange(input, { defaultDays: defaultRangeDays, today: todayUtc() });
  return { userId: principal.userId, siteIds, otherSiteIds, ...range, country: input.country ?? null, dataVersion };
}

export type ReportScope = Awaited<ReturnType<typeof reportScope>>;

/** What a report's result depends on besides the account and its data version (the cache key's scope part). */
export const scopeShape = ({ siteIds, fromDate, toDate, country }: ReportScope) => [siteIds, fromDate, toDate, country];

/** Sites, days with the range resolved, and country, as a view shows them (the dashboard's filter bar). */
export type ReportRange = ReportInput & DateRange;

/** The range a request covers, after the scope check (403): for views that show it and compare periods. */
export async function resolveReportRange(principal: Principal, input: ReportInput): Promise<ReportRange> {
  const { fromDate, toDate, country } = await reportScope(principal, input);
  return { siteIds: input.siteIds, fromDate, toDate, country };
}

export async function getTotals(principal: Principal, input: ReportInput): Promise<RevenueTotalResponse> {
  const scope = await reportScope(principal, input);
  return cachedReport(scope, 'totals', scopeShape(scope), async () => {
    const db = await getReadDb();
    const [sums] = await db.select(aggregates).from(revenueSource(scope, { byCountry: false }));
    return totalsResponse(sums);
  });
}

/**
 * The by-country report in exact integer sums, for callers that add them up (the dashboard's download);
 * getRevenueByCountry is the same report in the API's dollars.
 */
export async function getSumsByCountry(principal: Principal, input: ByCountryInput): Promise<Paged<CountrySums>> {
  const scope = await reportScope(principal, input);
  const { filter, search, sortBy, sortDirection } = input;
  const rows = await cachedReport(
    scope,
    'byCountry',
    [scopeShape(scope), filter, search, sortBy, sortDirection],
    async () => {
      const db = await getReadDb();
      // sortBy is a field's name: the grammar takes no other.
      const sortColumn = byCountryColumns[(sortBy ?? 'country') as ByCountryField];
      // At most one row per country (~250), so the whole filtered, sorted result is fetched and paged here;
      // that also gives totalRows without a second pass over the day rows.
      return (
        db
          .select({ country: revenue.country, ...aggregates })
          .from(revenueSource(scope, { byCountry: true }))
          .where(search ? countrySearch(search, revenue.country) : undefined)
          .groupBy(revenue.country)
          // A country whose rows were all subtracted (revenue-source.ts) has no rows in this scope.
          .having(and(sql`sum(${revenue.rows}) > 0`, filterToSql(filter, byCountryColumns)))
          .orderBy(...orderBy(sortDirection, sortColumn, [revenue.country]))
      );
    },
  );
  const offset = pageOffset(input);
  return { data: rows.slice(offset, offset + input.pageSize), meta: pageMeta(input, rows.length) };
}

export async function getRevenueByCountry(
  principal: Principal,
  input: ByCountryInput,
): Promise<Paged<RevenueByCountryResponse>> {
  const { data, meta } = await getSumsByCountry(principal, input);
  return { data: data.map(byCountryResponse), meta };
}

/** Search matches a country by its code or English name (names are not in the database). */
function countrySearch(search: string, column: SQLWrapper): SQL {
  const codes = countryCodesMatching(search);
  return searchToSql(search, [column], codes.length > 0 ? inArray(column as never, codes) : undefined);
}

/** The rows, a page at a time: every row of the account's sites, for account-level credentials only. */
export async function getRows(principal: Principal, paging: PagedRowsInput): Promise<Paged<RevenueRowResponse>> {
  requireAccountLevel(principal, 'Rows (one per site, country and day)');
  const { filter } = paging;
  const db = await getReadDb();
  const { userId } = principal;
  const selection = await selectRows(db, { userId, ...paging });
  const offset = pageOffset(paging);
  // In the default (day, site, country) order, a deep page starts at a day the rollup finds, not at an
  // OFFSET walked through every row before it.
  const seekable = (paging.sortBy ?? 'createdAt') === 'createdAt' && offset > 0;
  const fromRollup = await countAndLocate(
    db,
    { userId, filter, matched: selection.matched },
    seekable ? { offset, direction: paging.sortDirection } : null,
  );
  const page = (where: SQL, skip: number) =>
    db
      .select(rowColumns)
      .from(revenueDaily)
      .innerJoin(sites, eq(sites.id, revenueDaily.siteId))
      .where(where)
      .orderBy(...selection.orderBy)
      .limit(paging.pageSize)
      .offset(skip);
  let total: number;
  let rows: RevenueRow[];
  if (fromRollup && seekable) {
    const { start } = fromRollup;
    const onward = paging.sortDirection === 'desc' ? lte : gte;
    total = fromRollup.total;
    rows = start ? await page(and(selection.where, onward(revenueDaily.day, start.day))!, start.skip) : [];
  } else if (fromRollup) {
    [total, rows] = [fromRollup.total, await page(selection.where, offset)];
  } else {
    const counted = db.select({ total: count() }).from(revenueDaily);
    const joined = selection.usesSites ? counted.innerJoin(sites, eq(sites.id, revenueDaily.siteId)) : counted;
    [[{ total }], rows] = await Promise.all([joined.where(selection.where), page(selection.where, offset)]);
  }
  return { data: rows.map(rowResponse), meta: pageMeta(paging, Number(total)) };
}

export const ROW_COLUMNS = rowFields.map((f) => f.name);
export const BY_COUNTRY_COLUMNS = byCountryFields.map((f) => f.name);

/**
 * `meta.totalRows` of the granular feed without counting an account's daily rows one by one (0.5 s for a
 * 14.6 M-row account): the rollup (db/schema.ts) keeps how many daily rows each group holds, so a feed whose
 * filter only names the rollup's dimensions (day, country, site, account) is counted from the coarsest
 * grain that has them. Anything else (a metric, a site name) is counted exactly on revenue_daily.
 */
import { and, eq, inArray, isNotNull, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { revenueRollup } from '@/db/schema';
import { filterToSql, type FilterExpr } from '@/lib/query';

/** What Search matched: countries by code or name, and sites by name. */
export interface SearchMatch {
  countries: string[];
  siteIds: string[];
}

const r = revenueRollup;
/** The feed's dimension fields as rollup columns; `period` is the day at grain d. */
const ROLLUP_COLUMNS: Record<string, SQLWrapper> = { createdAt: r.period, country: r.country, gameId: r.siteId, userId: r.userId };

/**
 * The feed's row count from the rollup, or null when the filter or search needs the daily rows: a term on
 * anything but day, country, site or account, or sites and countries at once (the rollup has no day
 * grain by site and country).
 */
export async function countFromRollup(
  db: Db,
  userId: string,
  filter: FilterExpr,
  search: SearchMatch | null,
): Promise<number | null> {
  const fields = new Set(filter.flat().map((term) => term.field));
  if ([...fields].some((field) => !(field in ROLLUP_COLUMNS))) return null;
  const bySite = fields.has('gameId') || (search !== null && search.siteIds.length > 0);
  const byCountry = fields.has('country') || (search !== null && search.countries.length > 0);
  if (bySite && byCountry) return null;
  const searched: SQL | undefined = search
    ? (or(
        search.countries.length > 0 ? inArray(r.country, search.countries) : undefined,
        search.siteIds.length > 0 ? inArray(r.siteId, search.siteIds) : undefined,
      ) ?? sql`false`)
    : undefined;
  const [{ total }] = await db
    .select({ total: sql`coalesce(sum(${r.rows}), 0)`.mapWith(Number) })
    .from(r)
    .where(
      and(
        eq(r.userId, userId),
        // Without a day term, whole months hold the same rows in ~30× fewer groups.
        eq(r.grain, fields.has('createdAt') ? 'd' : 'm'),
        bySite ? isNotNull(r.siteId) : isNull(r.siteId),
        byCountry ? isNotNull(r.country) : isNull(r.country),
        filterToSql(filter, ROLLUP_COLUMNS),
        searched,
      ),
    );
  return total;
}

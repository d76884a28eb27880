import { and, eq, inArray, isNull, max, min, sql } from 'drizzle-orm';
import { getReadDb } from '@/db/client';
import { revenueRollup, users } from '@/db/schema';
import type { Principal } from '@/lib/access';

/** How far an account's figures reach and how fresh they are: the dashboard's "All time" and "Data updated". */
export interface DataSpan {
  /** The first UTC day with rows; null for an account without revenue. */
  firstDay: string | null;
  /** When a write last changed the figures. */
  updatedAt: Date | null;
}

/**
 * Read from the rollup's own rows for the whole account (or a site-scoped key's sites), not revenue_daily: a
 * row per day and month of history, whatever the account's size. Every write that changes figures touches its
 * month's row (one that empties a whole month removes that row instead; the product deletes revenue only with
 * its account).
 *
 * Each figure is its own subquery, so each is one end of an index (revenue_rollup_account_idx for the whole
 * account): one aggregate over both grains read every day row from the heap (14 ms for big@example.com, on
 * every report page).
 */
export async function getDataSpan(principal: Principal): Promise<DataSpan> {
  const db = await getReadDb();
  const r = revenueRollup;
  const rowsOf = (grain: 'd' | 'm') =>
    and(
      eq(r.userId, principal.userId),
      eq(r.grain, grain),
      principal.siteScope ? inArray(r.siteId, principal.siteScope) : isNull(r.siteId),
      isNull(r.country),
    );
  const firstDay = db
    .select({ day: min(r.period) })
    .from(r)
    .where(rowsOf('d'));
  const updatedAt = db
    .select({ at: max(r.updatedAt) })
    .from(r)
    .where(rowsOf('m'));
  const [span] = await db
    .select({
      firstDay: sql<string | null>`(${firstDay})`.mapWith(r.period),
      updatedAt: sql<Date | null>`(${updatedAt})`.mapWith(r.updatedAt),
    })
    .from(users)
    .where(eq(users.id, principal.userId));
  return { firstDay: span?.firstDay ?? null, updatedAt: span?.updatedAt ?? null };
}

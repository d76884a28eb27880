import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { getReadDb } from '@/db/client';
import { revenueRollup } from '@/db/schema';
import type { Principal } from '@/lib/accounts';

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
 */
export async function getDataSpan(principal: Principal): Promise<DataSpan> {
  const db = await getReadDb();
  const r = revenueRollup;
  const [span] = await db
    .select({
      firstDay: sql<string | null>`min(${r.period}) filter (where ${r.grain} = 'd')`.mapWith(r.period),
      updatedAt: sql<Date | null>`max(${r.updatedAt}) filter (where ${r.grain} = 'm')`.mapWith(r.updatedAt),
    })
    .from(r)
    .where(
      and(
        eq(r.userId, principal.userId),
        principal.siteScope ? inArray(r.siteId, principal.siteScope) : isNull(r.siteId),
        isNull(r.country),
      ),
    );
  return { firstDay: span?.firstDay ?? null, updatedAt: span?.updatedAt ?? null };
}

import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * The derived metrics in SQL, for filtering and sorting in the database; lib/shared/money.ts computes the same
 * values for output. Written once here because revenue_daily's sort indexes (db/schema.ts) must be on
 * exactly the expressions the rows are ordered by, or PostgreSQL will not use them.
 */
export const revenueUsdSql = (micros: SQLWrapper): SQL => sql`(${micros}::numeric / 1000000)`;
export const cpmSql = (micros: SQLWrapper, impressions: SQLWrapper): SQL =>
  sql`(case when ${impressions} = 0 then 0 else ${micros}::numeric / ${impressions} / 1000 end)`;
export const fillRateSql = (impressions: SQLWrapper, adRequests: SQLWrapper): SQL =>
  sql`(case when ${adRequests} = 0 then 0 else ${impressions}::numeric / ${adRequests} end)`;

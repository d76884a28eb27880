/**
 * revenue_daily is partitioned by month (db/migrations/0016_revenue_daily_by_month.sql), and a row can be written only
 * once its month exists: every writer of revenue rows makes the months of the days it writes first. Idempotent and
 * cheap when they exist (a catalog lookup per month).
 */
import { sql } from 'drizzle-orm';
import type { Tx } from './open';

/** Makes the months of revenue_daily from `first` to `last` (YYYY-MM-DD) that do not exist yet. */
export async function addRevenueMonths(db: Pick<Tx, 'execute'>, first: string, last: string): Promise<void> {
  await db.execute(sql`select revenue_daily_add_months(${first}::date, ${last}::date)`);
}

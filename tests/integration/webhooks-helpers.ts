import type { Db } from '@/db/client';
import { type NewAlert, storeAlerts } from '@/lib/alerts/record';
import { alerts } from '@/db/schema-alerts';
import { inArray } from 'drizzle-orm';

/** Stores an alert as the evaluation does (in a transaction, queuing its webhooks) and returns the stored rows. */
export async function storeAlertsForTest(db: Db, alert: NewAlert) {
  await db.transaction((tx) => storeAlerts(tx, [alert]));
  return db
    .select()
    .from(alerts)
    .where(inArray(alerts.dedupeKey, [alert.dedupeKey]));
}

import type { Tx } from '@/db/client';
import { type AlertRow, alerts } from '@/db/schema-alerts';
import { queueWebhookEvents } from '@/lib/webhooks';
import type { AlertResponse } from './schemas';
import type { AlertKind } from '@/lib/shared/events';

/**
 * An alert to store. The kinds (lib/shared/events.ts) are found by the evaluation (./revenue.ts, ./scan.ts) or
 * raised by events of the activity log (./from-events.ts).
 */
export interface NewAlert {
  accountId: string;
  kind: AlertKind;
  /** Names the occurrence: storing an alert of a key the account already has stores nothing. */
  dedupeKey: string;
  siteId?: string | null;
  day?: string | null;
  subjectId?: string | null;
  message: string;
  details?: Record<string, unknown>;
}

/** An alert as the API answers it, and as its webhook event carries it. */
export const alertResponseOf = (row: AlertRow): AlertResponse => ({
  id: row.id,
  kind: row.kind as AlertKind,
  state: row.state,
  day: row.day,
  siteId: row.siteId,
  subjectId: row.subjectId,
  createdAt: row.createdAt.toISOString(),
  acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
  message: row.message,
  details: row.details,
});

/**
 * Stores the alerts that are new, in the caller's transaction, and queues them for the account's webhooks
 * that asked for their kind; returns how many were new.
 */
export async function storeAlerts(tx: Tx, found: NewAlert[]): Promise<number> {
  if (found.length === 0) return 0;
  const stored = await tx
    .insert(alerts)
    .values(found)
    .onConflictDoNothing({ target: [alerts.accountId, alerts.dedupeKey] })
    .returning();
  await queueWebhookEvents(
    tx,
    stored.map((row) => ({ accountId: row.accountId, type: row.kind as AlertKind, data: alertResponseOf(row) })),
  );
  return stored.length;
}

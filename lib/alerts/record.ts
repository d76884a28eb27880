import type { Tx } from '@/db/client';
import { alerts } from '@/db/schema-alerts';
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

/** Stores the alerts that are new, in the caller's transaction; returns how many were. */
export async function storeAlerts(tx: Pick<Tx, 'insert'>, found: NewAlert[]): Promise<number> {
  if (found.length === 0) return 0;
  const stored = await tx
    .insert(alerts)
    .values(found)
    .onConflictDoNothing({ target: [alerts.accountId, alerts.dedupeKey] })
    .returning({ id: alerts.id });
  return stored.length;
}

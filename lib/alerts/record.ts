import type { Tx } from '@/db/client';
import { alerts } from '@/db/schema-alerts';

/**
 * The kinds of alert, each a fact the account is told about first. Revenue and data alerts are found by the
 * evaluation (./revenue.ts, ./scan.ts); the others follow events of the activity log (./from-events.ts).
 */
export const ALERT_KINDS = [
  'revenue.drop',
  'revenue.spike',
  'data.missing',
  'statement.finalized',
  'payment.recorded',
  'site.status_changed',
  'key.expiring',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

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

import { and, inArray, isNull } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { webhookDeliveries, webhookEndpoints } from '@/db/schema-alerts';
import type { WebhookEventType } from '@/lib/shared/events';

/** An event of an account, as its webhooks receive it: `{ type, timestamp, data }`. */
export interface WebhookEvent {
  accountId: string;
  type: WebhookEventType | 'webhook.test';
  data: Record<string, unknown>;
}

/** The body of a delivery, as the Standard Webhooks specification suggests it. */
export const payloadOf = (event: WebhookEvent, at = new Date()) => ({
  type: event.type,
  timestamp: at.toISOString(),
  data: event.data,
});

/**
 * Queues the events for every enabled endpoint of their account that asked for their type, in the caller's
 * transaction: the deliveries exist exactly when what caused them does, and are sent after it commits.
 * Returns how many deliveries were queued.
 */
export async function queueWebhookEvents(tx: Tx, events: WebhookEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, accountId: webhookEndpoints.accountId, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(
      and(
        inArray(webhookEndpoints.accountId, [...new Set(events.map((e) => e.accountId))]),
        isNull(webhookEndpoints.disabledAt),
      ),
    );
  const at = new Date();
  const rows = events.flatMap((event) =>
    endpoints
      .filter((endpoint) => endpoint.accountId === event.accountId && endpoint.events.includes(event.type))
      .map((endpoint) => ({ endpointId: endpoint.id, eventType: event.type, payload: payloadOf(event, at) })),
  );
  if (rows.length > 0) await tx.insert(webhookDeliveries).values(rows);
  return rows.length;
}

/**
 * The names of what the portal tells an account first, written once: the kinds of alert (lib/alerts) and the
 * webhooks' event types (lib/webhooks), which are the alert kinds and `data.updated` (an import changed the
 * account's figures).
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

export const WEBHOOK_EVENT_TYPES = [...ALERT_KINDS, 'data.updated'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

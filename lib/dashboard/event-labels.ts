/** What the portal tells, in words (safe for the browser): alert kinds and webhook event types. */
import type { AlertKind, WebhookEventType } from '@/lib/shared/events';

/** Each alert kind in words, for the Alerts page; a new kind must be named here to compile. */
export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  'revenue.drop': 'Revenue drop',
  'revenue.spike': 'Revenue spike',
  'data.missing': 'Missing data',
  'statement.finalized': 'Statement final',
  'payment.recorded': 'Payment recorded',
  'site.status_changed': 'Site review',
  'key.expiring': 'API key expiring',
};

/** Each webhook event type in words, for Settings → Webhooks. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  ...ALERT_KIND_LABELS,
  'data.updated': 'Data updated (an import changed figures)',
};

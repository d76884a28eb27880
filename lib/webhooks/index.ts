/** Webhooks: endpoints an account registers, and its events delivered to them signed per Standard Webhooks. */
export { checkWebhookUrl } from './address';
export { createWebhook, deleteWebhook, listDeliveries, listWebhooks, MAX_WEBHOOKS, sendTestWebhook } from './endpoints';
export { queueWebhookEvents } from './queue';
export type { WebhookEvent } from './queue';
export {
  CreateWebhookResponse,
  createWebhookInput,
  DELIVERY_COLUMNS,
  deliveriesQuery,
  PagedDeliveries,
  WebhookResponse,
} from './schemas';
export { kickWebhooks, sendDueWebhooks, startWebhookSender, WEBHOOK_ATTEMPTS } from './sender';

/** Webhooks: endpoints an account registers, and its events delivered to them signed per Standard Webhooks. */
export { createWebhook, deleteWebhook, listDeliveries, listWebhooks, sendTestWebhook } from './endpoints';
export { queueWebhookEvents } from './queue';
export {
  CreateWebhookResponse,
  createWebhookInput,
  DELIVERY_COLUMNS,
  deliveriesQuery,
  DeliveryResponse,
  PagedDeliveries,
  PagedWebhooks,
  WEBHOOK_COLUMNS,
  webhooksQuery,
} from './schemas';
export { kickWebhooks, pruneDeliveries, sendDueWebhooks, startWebhookSender, WEBHOOK_ATTEMPTS } from './sender';

/** Webhook endpoints and deliveries as the API takes and answers them; their types are inferred. */
import { z } from '@/lib/shared/zod';
import { timestamp, uuid } from '@/lib/shared/response-fields';
import { WEBHOOK_EVENT_TYPES } from '@/lib/shared/events';
import { fieldsOf } from '@/lib/query/fields';
import { pagedRowsQueryOf } from '@/lib/query';
import { pagedSchema } from '@/lib/query/paging';

const eventType = z.enum(WEBHOOK_EVENT_TYPES, {
  error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
});

export const createWebhookInput = z.strictObject({
  url: z
    .string()
    .trim()
    .max(2000, 'must be at most 2,000 characters')
    .meta({ description: 'Where to POST the events: https, resolving to public addresses only', format: 'uri' }),
  events: z
    .array(eventType)
    .min(1, 'name at least one event type')
    .max(WEBHOOK_EVENT_TYPES.length)
    .transform((events) => [...new Set(events)])
    .meta({ description: 'The event types to send' }),
  description: z
    .string()
    .trim()
    .max(200, 'must be at most 200 characters')
    .refine((s) => !s.includes('\0'), 'must not contain NUL characters')
    .nullish(),
});
export type CreateWebhookInput = z.infer<typeof createWebhookInput>;

/** The fields that filter and sort a webhook: all but its event types. */
const WebhookFields = z.object({
  id: uuid,
  url: z.string(),
  description: z.string().nullable(),
  createdAt: timestamp,
  disabledAt: timestamp.nullable().meta({ description: 'When deliveries stopped: it failed for about a day' }),
  disabledReason: z.string().nullable(),
});

export const WebhookResponse = WebhookFields.extend({ events: z.array(eventType) }).meta({
  id: 'WebhookResponse',
  description: 'A webhook endpoint, without its signing secret.',
});
export type WebhookResponse = z.infer<typeof WebhookResponse>;

export const PagedWebhooks = pagedSchema(WebhookResponse, 'PagedWebhookResponse');
const webhookFields = fieldsOf(WebhookFields);
export type WebhookField = keyof z.infer<typeof WebhookFields>;
/** The CSV's columns: every field, the event types last (as JSON text). */
export const WEBHOOK_COLUMNS = [...webhookFields.map((f) => f.name), 'events'];
export const webhooksQuery = pagedRowsQueryOf(
  webhookFields,
  'Case-insensitive text: matches the URL or the description.',
  {
    filter: 'createdAt>=2026-11-01;url=@example.com',
    filterList: { url: 'https://hooks.example.com/portal,https://bi.example.com/events' },
  },
);

export const CreateWebhookResponse = z
  .object({
    webhook: WebhookResponse,
    secret: z.string().meta({
      description: 'The signing secret (whsec_…): shown in this response only. Verify each delivery with it.',
      example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    }),
  })
  .meta({ id: 'CreateWebhookResponse' });
export type CreateWebhookResponse = z.infer<typeof CreateWebhookResponse>;

/** The fields that filter and sort a delivery. */
const DeliveryFields = z.object({
  id: z.string().meta({ description: 'The message id: the `webhook-id` header, the same on every attempt' }),
  eventType: z.string().meta({ description: 'The event type', example: 'revenue.drop' }),
  status: z
    .enum(['pending', 'delivered', 'failed'])
    .meta({ description: 'pending until an attempt succeeds or the last one fails' }),
  attempts: z.int().min(0),
  lastStatus: z.int().nullable().meta({ description: 'The HTTP status of the last attempt; null when none answered' }),
  createdAt: timestamp,
  lastAttemptAt: timestamp.nullable(),
  nextAttemptAt: timestamp.nullable().meta({ description: 'When the next attempt is due, while pending' }),
  deliveredAt: timestamp.nullable(),
});

export const DeliveryResponse = DeliveryFields.extend({
  lastError: z.string().nullable().meta({ description: 'Why the last attempt failed: a timeout, a refusal, a status' }),
  lastResponse: z.string().nullable().meta({ description: 'What the endpoint last answered, at most 1 KB of it' }),
  payload: z.record(z.string(), z.unknown()).meta({ description: 'The body sent: `{ type, timestamp, data }`' }),
}).meta({ id: 'WebhookDeliveryResponse', description: 'One event sent to an endpoint, and how it went.' });
export type DeliveryResponse = z.infer<typeof DeliveryResponse>;

export const PagedDeliveries = pagedSchema(DeliveryResponse, 'PagedWebhookDeliveryResponse');
const deliveryFields = fieldsOf(DeliveryFields);
export type DeliveryField = keyof z.infer<typeof DeliveryFields>;
export const DELIVERY_COLUMNS = [...deliveryFields.map((f) => f.name), 'lastError', 'lastResponse', 'payload'];
export const deliveriesQuery = pagedRowsQueryOf(deliveryFields, 'Case-insensitive text: matches the event type.', {
  filter: 'attempts>1;createdAt>=2026-11-01',
  filterList: { status: 'failed,pending' },
});

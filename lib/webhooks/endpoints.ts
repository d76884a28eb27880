import { randomBytes } from 'node:crypto';
import { and, count, eq, sql, type SQLWrapper } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { webhookDeliveries, webhookEndpoints } from '@/db/schema-alerts';
import {
  type Principal,
  requireAbility,
  requireAccountLevel,
  requirePublisherAccount,
  requireWritable,
} from '@/lib/access';
import { actorOf, recordEvent } from '@/lib/activity';
import { isUuid, selectPage, utcDay, type Paged, type PagedRowsInput } from '@/lib/query';
import { conflict, notFound } from '@/lib/shared/errors';
import { checkWebhookUrl } from './address';
import { payloadOf } from './queue';
import type {
  CreateWebhookInput,
  CreateWebhookResponse,
  DeliveryField,
  DeliveryResponse,
  WebhookField,
  WebhookResponse,
} from './schemas';

/** Endpoints per account: enough for a BI tool, a chat channel and a pipeline or two. */
const MAX_WEBHOOKS = 10;

const e = webhookEndpoints;
const d = webhookDeliveries;

/** Who manages webhooks: an Owner or Admin of a publisher account, or its account-level key (never a viewed one). */
function requireManager(principal: Principal, operation: string) {
  requirePublisherAccount(principal, 'Webhooks are a publisher account’s.');
  requireAbility(principal, 'manageWebhooks', operation);
  requireAccountLevel(principal, operation);
}

const toResponse = (row: typeof e.$inferSelect): WebhookResponse => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events as WebhookResponse['events'],
  createdAt: row.createdAt.toISOString(),
  disabledAt: row.disabledAt?.toISOString() ?? null,
  disabledReason: row.disabledReason,
});

/** A signing secret as the Standard Webhooks libraries read it: `whsec_` and 24 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export async function createWebhook(principal: Principal, input: CreateWebhookInput): Promise<CreateWebhookResponse> {
  requireManager(principal, 'Adding a webhook');
  requireWritable(principal);
  const url = await checkWebhookUrl(input.url);
  const db = await getDb();
  return db.transaction(async (tx) => {
    // The account's row lock: two requests at once cannot both pass the limit.
    await tx.execute(sql`select 1 from users where id = ${principal.userId} for update`);
    const [{ n }] = await tx.select({ n: count() }).from(e).where(eq(e.accountId, principal.userId));
    if (n >= MAX_WEBHOOKS) throw conflict(`An account has at most ${MAX_WEBHOOKS} webhooks: remove one first.`);
    const secret = newSecret();
    const [row] = await tx
      .insert(e)
      .values({
        accountId: principal.userId,
        url,
        description: input.description ?? null,
        events: input.events,
        secret,
        createdBy: principal.personId ?? null,
      })
      .returning();
    await recordEvent(tx, actorOf(principal), {
      kind: 'webhook.created',
      accountId: principal.userId,
      subjectId: row.id,
      details: { url, events: input.events },
    });
    return { webhook: toResponse(row), secret };
  });
}

const webhookColumns: Record<WebhookField, SQLWrapper> = {
  id: e.id,
  url: e.url,
  description: e.description,
  createdAt: utcDay(e.createdAt),
  disabledAt: utcDay(e.disabledAt),
  disabledReason: e.disabledReason,
};

/** The account's webhooks, newest first unless sorted otherwise; Filter, FilterList and Search as in the reports. */
export async function listWebhooks(principal: Principal, input: PagedRowsInput): Promise<Paged<WebhookResponse>> {
  requireManager(principal, 'Reading the webhooks');
  const table = {
    table: e,
    scope: eq(e.accountId, principal.userId),
    filterColumns: webhookColumns,
    sortColumns: { createdAt: e.createdAt, disabledAt: e.disabledAt },
    searchColumns: [e.url, e.description],
    newestFirst: 'createdAt' as const,
    id: e.id,
  };
  return selectPage(await getDb(), table, input, toResponse);
}

/** The account's endpoint of that id, or a 404 (another account's is unknown here). */
async function endpointOf(principal: Principal, id: string) {
  // Not a uuid: no webhook has it (the database would refuse the comparison).
  if (!isUuid(id)) throw notFound('No webhook of this account has that id.');
  const db = await getDb();
  const [row] = await db
    .select()
    .from(e)
    .where(and(eq(e.id, id), eq(e.accountId, principal.userId)));
  if (!row) throw notFound('No webhook of this account has that id.');
  return row;
}

/** Removes an endpoint and its deliveries (those not sent yet are never sent). */
export async function deleteWebhook(principal: Principal, id: string): Promise<void> {
  requireManager(principal, 'Removing a webhook');
  requireWritable(principal);
  const endpoint = await endpointOf(principal, id);
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(e).where(eq(e.id, endpoint.id));
    await recordEvent(tx, actorOf(principal), {
      kind: 'webhook.deleted',
      accountId: principal.userId,
      subjectId: endpoint.id,
      details: { url: endpoint.url },
    });
  });
}

const statusOf = (row: typeof d.$inferSelect): DeliveryResponse['status'] =>
  row.deliveredAt ? 'delivered' : row.failedAt ? 'failed' : 'pending';

const toDelivery = (row: typeof d.$inferSelect): DeliveryResponse => ({
  id: `msg_${row.id}`,
  eventType: row.eventType,
  status: statusOf(row),
  attempts: row.attempts,
  lastStatus: row.lastStatus,
  createdAt: row.createdAt.toISOString(),
  lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
  nextAttemptAt: statusOf(row) === 'pending' ? row.nextAttemptAt.toISOString() : null,
  deliveredAt: row.deliveredAt?.toISOString() ?? null,
  lastError: row.lastError,
  lastResponse: row.lastResponse,
  payload: row.payload,
});

/** Sends a `webhook.test` event to the endpoint now, whatever types it asked for; answers the delivery queued. */
export async function sendTestWebhook(principal: Principal, id: string): Promise<DeliveryResponse> {
  requireManager(principal, 'Testing a webhook');
  requireWritable(principal);
  const endpoint = await endpointOf(principal, id);
  if (endpoint.disabledAt) {
    throw conflict(`This webhook is turned off (${endpoint.disabledReason}): add it again to send to it.`);
  }
  const db = await getDb();
  const [row] = await db
    .insert(d)
    .values({
      endpointId: endpoint.id,
      eventType: 'webhook.test',
      payload: payloadOf({
        accountId: principal.userId,
        type: 'webhook.test',
        data: { message: 'A test event from the Publisher Portal.', webhookId: endpoint.id },
      }),
    })
    .returning();
  return toDelivery(row);
}

/** The status as the grammar filters it: the same words as the answer's. */
const statusSql = sql`case when ${d.deliveredAt} is not null then 'delivered' when ${d.failedAt} is not null then 'failed' else 'pending' end`;
const deliveryColumns: Record<DeliveryField, SQLWrapper> = {
  id: sql`'msg_' || ${d.id}::text`,
  eventType: d.eventType,
  status: statusSql,
  attempts: d.attempts,
  lastStatus: d.lastStatus,
  createdAt: utcDay(d.createdAt),
  lastAttemptAt: utcDay(d.lastAttemptAt),
  nextAttemptAt: utcDay(d.nextAttemptAt),
  deliveredAt: utcDay(d.deliveredAt),
};

/** An endpoint's deliveries, newest first unless sorted otherwise; Filter and FilterList as in the reports. */
export async function listDeliveries(
  principal: Principal,
  id: string,
  input: PagedRowsInput,
): Promise<Paged<DeliveryResponse>> {
  requireManager(principal, 'Reading a webhook’s deliveries');
  const endpoint = await endpointOf(principal, id);
  const table = {
    table: d,
    scope: eq(d.endpointId, endpoint.id),
    filterColumns: deliveryColumns,
    sortColumns: {
      createdAt: d.createdAt,
      lastAttemptAt: d.lastAttemptAt,
      nextAttemptAt: d.nextAttemptAt,
      deliveredAt: d.deliveredAt,
    },
    searchColumns: [d.eventType],
    newestFirst: 'createdAt' as const,
    id: d.id,
  };
  return selectPage(await getDb(), table, input, toDelivery);
}

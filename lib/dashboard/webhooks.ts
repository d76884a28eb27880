/** Settings → Webhooks' data: the account's webhooks and each one's latest deliveries, through the API's services. */
import type { Principal } from '@/lib/access';
import { deliveriesQuery, listDeliveries, listWebhooks, webhooksQuery } from '@/lib/webhooks';
import { readView } from './url';

/** Deliveries shown under each webhook: the latest few; the API pages through all of them. */
const LATEST_DELIVERIES = 5;

function inputOf<T>(schema: Parameters<typeof readView<T>>[0], params: Record<string, string>): T {
  const input = readView(schema, params);
  // Every value here is one the grammar takes; a failure is a bug, not the visitor's input.
  if (input instanceof Error) throw input;
  return input;
}

export async function loadWebhooks(principal: Principal) {
  const page = await listWebhooks(principal, inputOf(webhooksQuery, { pageSize: '10' }));
  const latest = inputOf(deliveriesQuery, { pageSize: String(LATEST_DELIVERIES) });
  return Promise.all(
    page.data.map(async (webhook) => ({
      webhook,
      deliveries: (await listDeliveries(principal, webhook.id, latest)).data,
    })),
  );
}

/** Settings → Webhooks' data: the account's webhooks and each one's latest deliveries, through the API's services. */
import type { Principal } from '@/lib/access';
import { deliveriesQuery, listDeliveries, listWebhooks, webhooksQuery } from '@/lib/webhooks';
import { readOwnView } from './url';

/** Deliveries shown under each webhook: the latest few; the API pages through all of them. */
const LATEST_DELIVERIES = 5;

export async function loadWebhooks(principal: Principal) {
  const page = await listWebhooks(principal, readOwnView(webhooksQuery, { pageSize: '10' }));
  const latest = readOwnView(deliveriesQuery, { pageSize: String(LATEST_DELIVERIES) });
  return Promise.all(
    page.data.map(async (webhook) => ({
      webhook,
      deliveries: (await listDeliveries(principal, webhook.id, latest)).data,
    })),
  );
}

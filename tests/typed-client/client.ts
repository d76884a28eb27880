/**
 * A small API client written the way an API user would: types generated from GET /api/v1/openapi.json by
 * openapi-typescript (./generated/api.ts, made by the test) and openapi-fetch. The test type-checks this file
 * against the generated types, then runs it: it calls every operation of the API once.
 */
import createClient from 'openapi-fetch';
import type { paths } from './generated/api';

export interface Credentials {
  /** An account-level key of a publisher. */
  publisherKey: string;
  /** An admin's key. */
  adminKey: string;
  /** The publisher's account id, for creating a key on its behalf. */
  publisherId: string;
  /** A day with revenue, YYYY-MM-DD. */
  day: string;
}

/** The paged reports also speak CSV (by Accept): this client asked for JSON, and says so if it got text. */
function json<T>(data: T | string | undefined): T | undefined {
  if (typeof data === 'string') throw new Error('expected JSON, got CSV');
  return data;
}

/** Calls every operation; returns a line per call saying what came back, for the test to check. */
export async function callEveryOperation(
  fetch: (request: Request) => Promise<Response>,
  who: Credentials,
): Promise<string[]> {
  // The client reads JSON: the document also offers each answer as text (text/json, text/plain, and CSV for
  // the paged reports), typed as strings, which a client that asks for application/json never gets.
  const publisher = createClient<paths, 'application/json'>({
    baseUrl: 'http://localhost',
    fetch,
    headers: { 'X-Api-Key': who.publisherKey },
  });
  const admin = createClient<paths, 'application/json'>({
    baseUrl: 'http://localhost',
    fetch,
    headers: { 'X-Api-Key': who.adminKey },
  });
  const seen: string[] = [];
  const range = { fromDate: who.day, toDate: who.day };

  const health = await publisher.GET('/api/v1/health');
  seen.push(`health ${health.data?.status}`);
  const document = await publisher.GET('/api/v1/openapi.json');
  seen.push(`openapi ${document.data?.openapi}`);

  const sites = await publisher.GET('/api/v1/sites');
  const siteIds: string[] = (sites.data ?? []).map((site) => site.siteId);
  seen.push(`sites ${siteIds.length}`);

  const totals = await publisher.GET('/api/v1/reports/totals', {
    params: { query: { ...range, siteIds: siteIds.join(',') } },
  });
  const revenue: number | undefined = totals.data?.totalRevenue;
  seen.push(`totals ${typeof revenue}`);

  const byCountry = await publisher.GET('/api/v1/reports/by-country', {
    params: { query: { ...range, sortBy: 'revenueAmount', sortDirection: 'desc', pageSize: 5 } },
  });
  const countries = json(byCountry.data);
  seen.push(`by-country ${countries?.data.length} of ${countries?.meta.totalRows}`);

  const rows = await publisher.GET('/api/v1/reports/countries', {
    params: { query: { pageSize: 3, Filter: `createdAt==${who.day}` } },
  });
  const firstCountry: string | null | undefined = json(rows.data)?.data[0]?.country;
  seen.push(`countries ${json(rows.data)?.data.length} ${typeof firstCountry}`);

  const exported = await publisher.GET('/api/v1/reports/countries/export', {
    params: { query: { Filter: `createdAt==${who.day}` } },
    parseAs: 'text',
  });
  seen.push(`export ${exported.response.headers.get('content-type')?.split(';')[0]}`);

  const legacy = await publisher.GET('/api/v1/revenues/countries', { params: { query: { pageSize: 1 } } });
  seen.push(`legacy ${legacy.response.headers.get('deprecation')}`);

  const created = await publisher.POST('/api/v1/api-keys', { body: { label: 'typed client' } });
  const keyId: string | undefined = created.data?.key.id;
  seen.push(`created ${created.data?.apiKey.startsWith('rpk_')}`);

  const listed = await publisher.GET('/api/v1/api-keys');
  seen.push(`listed ${listed.data?.some((key) => key.id === keyId)}`);

  const revoked = await publisher.DELETE('/api/v1/api-keys/{id}', { params: { path: { id: keyId! } } });
  seen.push(`revoked ${revoked.response.status}`);

  const forUser = await admin.POST('/api/v1/api-keys/for-user/{userId}', {
    params: { path: { userId: who.publisherId } },
    body: { label: 'made by an operator' },
  });
  seen.push(`for-user ${forUser.response.status}`);

  const ingested = await admin.POST('/api/v1/admin/revenue', {
    // A raw CSV body: sent as is, with its own media type.
    body: `day,siteId,country,impressions,clicks,adRequests,revenue\n${who.day},${siteIds[0]},US,10,1,20,0.5\n` as never,
    bodySerializer: (body) => body as string,
    headers: { 'Content-Type': 'text/csv' },
  });
  const rowCount: number | undefined = ingested.data?.rows;
  seen.push(`ingested ${rowCount}`);

  const activity = await publisher.GET('/api/v1/audit-events', {
    params: { query: { pageSize: 100, Filter: 'kind==key.revoked' } },
  });
  const revokedKeyId: string | null | undefined = activity.data?.data[0]?.subjectId;
  seen.push(`activity ${revokedKeyId === keyId}`);

  // The account's open revenue alerts; the first acknowledged, then again: a 409.
  const alerts = await publisher.GET('/api/v1/alerts', {
    params: { query: { Filter: 'state==open', FilterList: { kind: 'revenue.drop,revenue.spike' } } },
  });
  const alert = json(alerts.data)?.data[0];
  seen.push(`alerts ${json(alerts.data)?.meta.totalRows} ${alert?.kind}`);
  const alertPath = { params: { path: { id: alert?.id ?? 'none' } } };
  const acknowledged = await publisher.POST('/api/v1/alerts/{id}/acknowledge', alertPath);
  const alertState: 'open' | 'acknowledged' | undefined = acknowledged.data?.state;
  const twice = await publisher.POST('/api/v1/alerts/{id}/acknowledge', alertPath);
  seen.push(`acknowledged ${alertState} ${twice.response.status}`);

  // A webhook (to a public address as a literal: no DNS asked), its secret once; listed, sent a test event, its
  // deliveries read; removed, and then unknown: a 404.
  const added = await publisher.POST('/api/v1/webhooks', {
    body: { url: 'https://93.184.215.14/typed-client', events: ['revenue.drop', 'data.missing'] },
  });
  const webhookId: string | undefined = added.data?.webhook.id;
  seen.push(`webhook ${added.data?.secret.startsWith('whsec_')} ${added.data?.webhook.events.length}`);
  const webhooks = await publisher.GET('/api/v1/webhooks', { params: { query: { Filter: `id==${webhookId}` } } });
  seen.push(`webhooks ${json(webhooks.data)?.meta.totalRows}`);
  const webhookPath = { params: { path: { id: webhookId ?? 'none' } } };
  const tested = await publisher.POST('/api/v1/webhooks/{id}/test', webhookPath);
  const deliveryStatus: 'pending' | 'delivered' | 'failed' | undefined = tested.data?.status;
  seen.push(`tested ${tested.data?.eventType} ${deliveryStatus}`);
  const deliveries = await publisher.GET('/api/v1/webhooks/{id}/deliveries', {
    params: { ...webhookPath.params, query: { FilterList: { eventType: 'webhook.test' } } },
  });
  seen.push(
    `deliveries ${json(deliveries.data)
      ?.data.map((d) => d.id === tested.data?.id)
      .join(' ')}`,
  );
  const removed = await publisher.DELETE('/api/v1/webhooks/{id}', webhookPath);
  const gone = await publisher.GET('/api/v1/webhooks/{id}/deliveries', webhookPath);
  seen.push(`removed ${removed.response.status} ${gone.response.status}`);

  // A publisher account of its own: created invited, invited again, deactivated, reactivated, then listed.
  const invited = await admin.POST('/api/v1/admin/publishers', {
    body: { email: `typed-client-${Date.now()}@example.com`, name: 'Typed client' },
  });
  const accountId = invited.data?.id;
  const status: 'invited' | 'active' | 'deactivated' | undefined = invited.data?.status;
  const path = { params: { path: { id: accountId! } } };
  const again = await admin.POST('/api/v1/admin/publishers/{id}/invitation', path);
  const deactivated = await admin.POST('/api/v1/admin/publishers/{id}/deactivate', path);
  const reactivated = await admin.POST('/api/v1/admin/publishers/{id}/reactivate', path);
  seen.push(`publisher ${status} ${again.data?.status} ${deactivated.data?.status} ${reactivated.data?.status}`);
  const publishers = await admin.GET('/api/v1/admin/publishers', {
    params: { query: { Filter: `id==${accountId}` } },
  });
  seen.push(`publishers ${json(publishers.data)?.meta.totalRows}`);

  const site = await admin.POST('/api/v1/admin/sites', {
    body: { publisherId: who.publisherId, name: 'Typed Game', url: 'https://typed.test.example', framework: 'phaser' },
  });
  const siteStatus: 'live' | 'approved' | 'pending' | null | undefined = site.data?.status;
  seen.push(`site ${siteStatus}`);

  const reviewed = await admin.PATCH('/api/v1/admin/sites/{id}', {
    params: { path: { id: site.data!.siteId } },
    body: { status: 'pending', statusReason: 'Add a privacy policy' },
  });
  seen.push(`reviewed ${reviewed.data?.statusReason}`);

  const queue = await admin.GET('/api/v1/admin/sites', {
    params: { query: { 'FilterList[status]': 'pending', pageSize: 5 } as never },
  });
  seen.push(`queue ${json(queue.data)?.data.every((s) => s.status === 'pending')}`);

  const balance = await publisher.GET('/api/v1/payments/balance');
  const owed: number | undefined = balance.data?.balance;
  seen.push(`balance ${typeof owed}`);
  const statements = await publisher.GET('/api/v1/payments/statements', { params: { query: { pageSize: 5 } } });
  const month: string | undefined = json(statements.data)?.data[0]?.month;
  seen.push(`statements ${json(statements.data)?.data.length}`);
  const statement = await publisher.GET('/api/v1/payments/statements/{month}', {
    params: { path: { month: month ?? '1999-01' } },
  });
  seen.push(`statement ${statement.data?.month === month}`);

  const problem = await publisher.GET('/api/v1/reports/totals', { params: { query: { fromDate: 'not a day' } } });
  seen.push(`problem ${problem.response.status} ${problem.error ? 'typed' : 'none'}`);
  return seen;
}

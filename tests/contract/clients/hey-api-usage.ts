/**
 * Calls every operation through the client @hey-api/openapi-ts generated (../generated/hey-api, unedited), as
 * an API user would: FilterList with two values, CSV as text, NDJSON as a stream, the legacy feed with
 * ?apiKey=, keys created, listed and revoked, alerts listed and acknowledged, a webhook added, listed, tested
 * and removed, a key made by an admin, revenue loaded. Returns a line per call, in order: the operation's name,
 * or what failed.
 */
import { client } from '../generated/hey-api/client.gen';
import * as api from '../generated/hey-api/sdk.gen';
import { check, type Credentials, revenueCsv } from './credentials';

export async function callEveryOperation(who: Credentials): Promise<string[]> {
  client.setConfig({ baseUrl: who.origin, headers: { 'X-Api-Key': who.publisherKey } });
  const admin = { headers: { 'X-Api-Key': who.adminKey } };
  const range = { fromDate: who.day, toDate: who.day };
  const called: string[] = [];

  const health = await api.getHealth();
  called.push(check(health.data?.status === 'ok', 'getHealth', health.error));
  const document = await api.getOpenApiDocument();
  called.push(check(document.data?.openapi.startsWith('3.1'), 'getOpenApiDocument', document.error));
  const sites = await api.listSites();
  called.push(check(sites.data?.length === who.siteIds.length, 'listSites', sites.error));

  const totals = await api.getTotals({ query: { ...range, siteIds: who.siteIds.join(',') } });
  called.push(check(typeof totals.data?.totalRevenue === 'number', 'getTotals', totals.error));

  const byCountry = await api.getRevenueByCountry({
    query: { ...range, sortBy: 'revenueAmount', sortDirection: 'desc', FilterList: { country: 'US,DE' } },
  });
  const countries = byCountry.data?.data.map((row) => row.country) ?? [];
  called.push(
    check(byCountry.data && countries.every((c) => c === 'US' || c === 'DE'), 'getRevenueByCountry', byCountry.error),
  );

  const rows = await api.getCountryRows({
    query: { pageSize: 5, Filter: `createdAt>=${who.day}`, Search: 'a' },
    headers: { Accept: 'text/csv' },
    parseAs: 'text',
  });
  const header = String(rows.data).split('\n')[0].split(',');
  called.push(check(header.includes('country'), 'getCountryRows', rows.error));

  const exported = await api.exportCountryRows({
    query: { Filter: `createdAt==${who.day}`, sortBy: 'revenueAmount', sortDirection: 'desc' },
    headers: { Accept: 'application/x-ndjson' },
    parseAs: 'stream',
  });
  const lines = (await new Response(exported.data as ReadableStream | undefined).text()).split('\n').filter(Boolean);
  called.push(
    check(exported.response?.ok && lines.every((l) => JSON.parse(l).createdAt), 'exportCountryRows', exported.error),
  );

  // The legacy feed takes the key as ?apiKey=: the generated client puts it there when asked for that scheme.
  const legacy = await api.getLegacyCountryRows({
    query: { pageSize: 2 },
    headers: { 'X-Api-Key': null },
    auth: (scheme) => (scheme.in === 'query' ? who.publisherKey : undefined),
  });
  called.push(
    check(legacy.response?.headers.get('deprecation') && legacy.data?.data, 'getLegacyCountryRows', legacy.error),
  );

  const created = await api.createApiKey({ body: { label: 'hey-api client', siteIds: who.siteIds.slice(0, 1) } });
  called.push(check(created.data?.apiKey.startsWith('rpk_'), 'createApiKey', created.error));
  const listed = await api.listApiKeys();
  called.push(
    check(
      listed.data?.some((k) => k.id === created.data?.key.id),
      'listApiKeys',
      listed.error,
    ),
  );
  const revoked = await api.revokeApiKey({ path: { id: created.data?.key.id ?? 'none' } });
  called.push(check(revoked.response?.status === 200, 'revokeApiKey', revoked.error));
  const activity = await api.listAuditEvents({ query: { Filter: 'kind==key.revoked', pageSize: 5 } });
  called.push(
    check(
      activity.data?.data.some((e) => e.subjectId === created.data?.key.id),
      'listAuditEvents',
      activity.error,
    ),
  );

  // The account's open alerts of two kinds; the newest acknowledged, then again: a 409 saying since when.
  const kinds = ['revenue.drop', 'data.missing'];
  const open = await api.listAlerts({
    query: { Filter: 'state==open', FilterList: { kind: kinds.join(',') }, sortBy: 'createdAt', sortDirection: 'desc' },
  });
  const openAlerts = open.data?.data ?? [];
  const onlyOpen = openAlerts.length && openAlerts.every((a) => a.state === 'open' && kinds.includes(a.kind));
  called.push(check(onlyOpen, 'listAlerts', open.error));
  const alertId = { path: { id: openAlerts[0]?.id ?? 'none' } };
  const acknowledged = await api.acknowledgeAlert(alertId);
  const twice = await api.acknowledgeAlert(alertId);
  called.push(
    check(
      acknowledged.data?.state === 'acknowledged' && acknowledged.data.acknowledgedAt && twice.response?.status === 409,
      'acknowledgeAlert',
      acknowledged.error ?? twice.error,
    ),
  );

  // A webhook to a public address (a literal: no DNS asked), its secret once; listed, sent a test event, the
  // delivery pending among its deliveries; removed, and then unknown.
  const url = 'https://93.184.215.14/hey-api';
  const hook = await api.createWebhook({
    body: { url, events: ['revenue.drop', 'data.missing'], description: 'hey-api client' },
  });
  const webhook = hook.data?.webhook;
  called.push(check(hook.data?.secret.startsWith('whsec_') && webhook?.url === url, 'createWebhook', hook.error));
  const hooks = await api.listWebhooks({
    query: { Search: 'hey-api', FilterList: { url: `${url},https://93.184.215.14/other` }, sortBy: 'createdAt' },
  });
  called.push(
    check(
      hooks.data?.data.some((w) => w.id === webhook?.id && w.disabledAt === null),
      'listWebhooks',
      hooks.error,
    ),
  );
  const webhookId = { path: { id: webhook?.id ?? 'none' } };
  const tested = await api.testWebhook(webhookId);
  const test = tested.data;
  called.push(check(test?.status === 'pending' && test.eventType === 'webhook.test', 'testWebhook', tested.error));
  const deliveries = await api.listWebhookDeliveries({
    ...webhookId,
    query: { FilterList: { eventType: 'webhook.test,revenue.drop' }, sortBy: 'createdAt', sortDirection: 'desc' },
  });
  called.push(
    check(
      deliveries.data?.data.some((d) => d.id === test?.id),
      'listWebhookDeliveries',
      deliveries.error,
    ),
  );
  const removed = await api.deleteWebhook(webhookId);
  const gone = await api.listWebhookDeliveries(webhookId);
  called.push(
    check(
      removed.response?.status === 200 && gone.response?.status === 404,
      'deleteWebhook',
      removed.error ?? gone.response?.status,
    ),
  );

  const balance = await api.getBalance();
  called.push(check(typeof balance.data?.balance === 'number', 'getBalance', balance.error));
  const paid = await api.listStatements({ query: { Filter: 'status==paid', pageSize: 5 } });
  const paidMonth = paid.data?.data[0]?.month;
  called.push(check(paidMonth && paid.data?.data.every((s) => s.status === 'paid'), 'listStatements', paid.error));
  const statement = await api.getStatement({ path: { month: paidMonth ?? '1999-01' } });
  called.push(
    check(statement.data?.month === paidMonth && statement.data?.lines.length, 'getStatement', statement.error),
  );

  const forUser = await api.createApiKeyForUser({
    ...admin,
    path: { userId: who.publisherId },
    body: { label: 'by an operator' },
  });
  called.push(check(forUser.data?.apiKey.startsWith('rpk_'), 'createApiKeyForUser', forUser.error));
  const ingested = await api.ingestRevenue({ ...admin, body: revenueCsv(who) });
  called.push(check(ingested.data?.rows === 1, 'ingestRevenue', ingested.error));

  // A publisher account of the client's own: created invited, invited again, deactivated, reactivated, listed.
  const email = `hey-api-${Date.now()}@example.com`;
  const account = await api.createPublisher({ ...admin, body: { email, name: 'hey-api client' } });
  called.push(check(account.data?.status === 'invited', 'createPublisher', account.error));
  const id = { ...admin, path: { id: account.data?.id ?? 'none' } };
  const again = await api.resendInvitation(id);
  called.push(check(again.data?.status === 'invited', 'resendInvitation', again.error));
  const deactivated = await api.deactivatePublisher(id);
  called.push(check(deactivated.data?.status === 'deactivated', 'deactivatePublisher', deactivated.error));
  const reactivated = await api.reactivatePublisher(id);
  called.push(check(reactivated.data?.status === 'invited', 'reactivatePublisher', reactivated.error));
  const publishers = await api.listPublishers({ ...admin, query: { Search: email } });
  called.push(check(publishers.data?.data[0]?.email === email, 'listPublishers', publishers.error));

  // A site of that account: added pending, sent back with a reason, found in the review queue.
  const game = `hey-api game ${Date.now()}`;
  const site = await api.createSite({
    ...admin,
    body: {
      publisherId: account.data?.id ?? 'none',
      name: game,
      url: 'https://hey-api.example.com',
      framework: 'phaser',
    },
  });
  called.push(check(site.data?.status === 'pending', 'createSite', site.error));
  const reviewed = await api.updateSite({
    ...admin,
    path: { id: site.data?.siteId ?? 'none' },
    body: { status: 'pending', statusReason: 'Add a privacy policy' },
  });
  called.push(check(reviewed.data?.statusReason === 'Add a privacy policy', 'updateSite', reviewed.error));
  const queue = await api.listAllSites({ ...admin, query: { Search: game } });
  called.push(
    check(
      queue.data?.data.some((s) => s.siteId === site.data?.siteId),
      'listAllSites',
      queue.error,
    ),
  );
  return called;
}

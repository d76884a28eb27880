/**
 * Calls every operation through the client orval generated (../generated/orval/api.ts, unedited; its fetch is
 * ./orval-fetch.ts), as an API user would: FilterList with two values, CSV as text, NDJSON as a stream, the
 * legacy feed with ?apiKey=, keys created, listed and revoked, alerts listed and acknowledged, a webhook added,
 * listed, tested and removed, a key made by an admin, revenue loaded. Returns a line per call, in order: the
 * operation's name, or what failed.
 */
import * as api from '../generated/orval/api';
import { check, type Credentials, revenueCsv } from './credentials';
import { setOrigin } from './orval-fetch';

/** A JSON body: orval types a body as `T | string` when the document also lists a text media type for it. */
const json = <T>(data: T | string): T | undefined => (typeof data === 'string' ? undefined : data);

export async function callEveryOperation(who: Credentials): Promise<string[]> {
  setOrigin(who.origin);
  const publisher = { headers: { 'X-Api-Key': who.publisherKey } };
  const admin = { headers: { 'X-Api-Key': who.adminKey } };
  const range = { fromDate: who.day, toDate: who.day };
  const called: string[] = [];

  const health = await api.getHealth();
  const up = health.status === 200 ? json(health.data) : undefined;
  called.push(check(up?.status === 'ok', 'getHealth', health.data));
  const document = await api.getOpenApiDocument();
  const contract = document.status === 200 ? json(document.data) : undefined;
  called.push(check(contract?.openapi.startsWith('3.1'), 'getOpenApiDocument', document.data));
  const sites = await api.listSites(publisher);
  const siteList = sites.status === 200 ? json(sites.data) : undefined;
  called.push(check(siteList?.length === who.siteIds.length, 'listSites', sites.data));

  const totals = await api.getTotals({ ...range, siteIds: who.siteIds.join(',') }, publisher);
  const sums = totals.status === 200 ? json(totals.data) : undefined;
  called.push(check(typeof sums?.totalRevenue === 'number', 'getTotals', totals.data));

  const byCountry = await api.getRevenueByCountry(
    { ...range, sortBy: 'revenueAmount', sortDirection: 'desc', FilterList: { country: 'US,DE' } },
    publisher,
  );
  const countries = byCountry.status === 200 ? json(byCountry.data)?.data : undefined;
  const onlyThose = countries?.length && countries.every((row) => ['US', 'DE'].includes(row.country ?? ''));
  called.push(check(onlyThose, 'getRevenueByCountry', byCountry.data));

  const rows = await api.getCountryRows(
    { pageSize: 5, Filter: `createdAt>=${who.day}`, Search: 'a' },
    { headers: { ...publisher.headers, Accept: 'text/csv' } },
  );
  const header = typeof rows.data === 'string' ? rows.data.split('\n')[0].split(',') : [];
  called.push(check(rows.status === 200 && header.includes('country'), 'getCountryRows', rows.data));

  const exported = await api.exportCountryRows(
    { Filter: `createdAt==${who.day}`, sortBy: 'revenueAmount', sortDirection: 'desc' },
    { headers: { ...publisher.headers, Accept: 'application/x-ndjson' } },
  );
  const lines = 'stream' in exported ? (await exported.stream.text()).split('\n').filter(Boolean) : [];
  called.push(check(lines.length && lines.every((l) => JSON.parse(l).createdAt), 'exportCountryRows', exported.status));

  // The legacy feed takes the key as ?apiKey= (the document's apiKeyQuery scheme; orval leaves security to us).
  const legacyQuery = { pageSize: 2, apiKey: who.publisherKey } as api.GetLegacyCountryRowsParams;
  const legacy = await api.getLegacyCountryRows(legacyQuery);
  called.push(check(legacy.status === 200 && legacy.headers.get('deprecation'), 'getLegacyCountryRows', legacy.data));

  const created = await api.createApiKey({ label: 'orval client', siteIds: who.siteIds.slice(0, 1) }, publisher);
  const newKey = created.status === 200 ? json(created.data) : undefined;
  called.push(check(newKey?.apiKey.startsWith('rpk_'), 'createApiKey', created.data));
  const listed = await api.listApiKeys(publisher);
  const keys = listed.status === 200 ? json(listed.data) : undefined;
  called.push(
    check(
      keys?.some((k) => k.id === newKey?.key.id),
      'listApiKeys',
      listed.data,
    ),
  );
  const revoked = await api.revokeApiKey(newKey?.key.id ?? 'none', publisher);
  called.push(check(revoked.status === 200, 'revokeApiKey', revoked.data));
  const activity = await api.listAuditEvents({ Filter: 'kind==key.revoked', pageSize: 5 }, publisher);
  const events = activity.status === 200 ? json(activity.data) : undefined;
  called.push(
    check(
      events?.data.some((e) => e.subjectId === newKey?.key.id),
      'listAuditEvents',
      activity.data,
    ),
  );

  // The account's open alerts of two kinds; the newest acknowledged, then again: a 409 saying since when.
  const kinds = ['revenue.drop', 'data.missing'];
  const open = await api.listAlerts(
    { Filter: 'state==open', FilterList: { kind: kinds.join(',') }, sortBy: 'createdAt', sortDirection: 'desc' },
    publisher,
  );
  const openAlerts = open.status === 200 ? json(open.data)?.data : undefined;
  const onlyOpen = openAlerts?.length && openAlerts.every((a) => a.state === 'open' && kinds.includes(a.kind));
  called.push(check(onlyOpen, 'listAlerts', open.data));
  const alertId = openAlerts?.[0]?.id ?? 'none';
  const acknowledged = await api.acknowledgeAlert(alertId, publisher);
  const alert = acknowledged.status === 200 ? json(acknowledged.data) : undefined;
  const twice = await api.acknowledgeAlert(alertId, publisher);
  called.push(
    check(
      alert?.state === 'acknowledged' && alert.acknowledgedAt && twice.status === 409,
      'acknowledgeAlert',
      alert ? twice.data : acknowledged.data,
    ),
  );

  // A webhook to a public address (a literal: no DNS asked), its secret once; listed, sent a test event, the
  // delivery pending among its deliveries; removed, and then unknown.
  const url = 'https://93.184.215.14/orval';
  const hook = await api.createWebhook(
    { url, events: ['revenue.drop', 'data.missing'], description: 'orval client' },
    publisher,
  );
  const withSecret = hook.status === 200 ? json(hook.data) : undefined;
  const secretOnce = withSecret?.secret.startsWith('whsec_') && withSecret.webhook.url === url;
  called.push(check(secretOnce, 'createWebhook', hook.data));
  const webhookId = withSecret?.webhook.id ?? 'none';
  const hooks = await api.listWebhooks(
    { Search: 'orval', FilterList: { url: `${url},https://93.184.215.14/other` }, sortBy: 'createdAt' },
    publisher,
  );
  const webhooks = hooks.status === 200 ? json(hooks.data)?.data : undefined;
  called.push(
    check(
      webhooks?.some((w) => w.id === webhookId && w.disabledAt === null),
      'listWebhooks',
      hooks.data,
    ),
  );
  const tested = await api.testWebhook(webhookId, publisher);
  const test = tested.status === 200 ? json(tested.data) : undefined;
  called.push(check(test?.status === 'pending' && test.eventType === 'webhook.test', 'testWebhook', tested.data));
  const deliveries = await api.listWebhookDeliveries(
    webhookId,
    { FilterList: { eventType: 'webhook.test,revenue.drop' }, sortBy: 'createdAt', sortDirection: 'desc' },
    publisher,
  );
  const sent = deliveries.status === 200 ? json(deliveries.data)?.data : undefined;
  called.push(
    check(
      sent?.some((d) => d.id === test?.id),
      'listWebhookDeliveries',
      deliveries.data,
    ),
  );
  const removed = await api.deleteWebhook(webhookId, publisher);
  const gone = await api.listWebhookDeliveries(webhookId, undefined, publisher);
  called.push(
    check(removed.status === 200 && gone.status === 404, 'deleteWebhook', removed.status === 200 ? gone : removed),
  );

  const balance = await api.getBalance(publisher);
  const owed = balance.status === 200 ? json(balance.data) : undefined;
  called.push(check(typeof owed?.balance === 'number', 'getBalance', balance.data));
  const paid = await api.listStatements({ Filter: 'status==paid', pageSize: 5 }, publisher);
  const paidList = paid.status === 200 ? json(paid.data)?.data : undefined;
  const paidMonth = paidList?.[0]?.month;
  called.push(check(paidMonth && paidList?.every((s) => s.status === 'paid'), 'listStatements', paid.data));
  const statement = await api.getStatement(paidMonth ?? '1999-01', publisher);
  // Typed `StatementResponse | Blob`: the operation also answers a PDF.
  const detail = statement.status === 200 && !(statement.data instanceof Blob) ? json(statement.data) : undefined;
  const statementLines = detail?.lines;
  called.push(check(statementLines?.length, 'getStatement', statement.data));

  const forUser = await api.createApiKeyForUser(who.publisherId, { label: 'by an operator' }, admin);
  const adminMade = forUser.status === 200 ? json(forUser.data) : undefined;
  called.push(check(adminMade?.apiKey.startsWith('rpk_'), 'createApiKeyForUser', forUser.data));
  const ingested = await api.ingestRevenue(revenueCsv(who), undefined, admin);
  const summary = ingested.status === 200 ? json(ingested.data) : undefined;
  called.push(check(summary?.rows === 1, 'ingestRevenue', ingested.data));

  // A publisher account of the client's own: created invited, invited again, deactivated, reactivated, listed.
  const email = `orval-${Date.now()}@example.com`;
  const account = await api.createPublisher({ email, name: 'orval client' }, admin);
  const invited = account.status === 200 ? json(account.data) : undefined;
  called.push(check(invited?.status === 'invited', 'createPublisher', account.data));
  const id = invited?.id ?? 'none';
  const again = await api.resendInvitation(id, admin);
  called.push(check(again.status === 200 && json(again.data)?.status === 'invited', 'resendInvitation', again.data));
  const deactivated = await api.deactivatePublisher(id, admin);
  called.push(
    check(
      deactivated.status === 200 && json(deactivated.data)?.status === 'deactivated',
      'deactivatePublisher',
      deactivated.data,
    ),
  );
  const reactivated = await api.reactivatePublisher(id, admin);
  called.push(
    check(
      reactivated.status === 200 && json(reactivated.data)?.status === 'invited',
      'reactivatePublisher',
      reactivated.data,
    ),
  );
  const publishers = await api.listPublishers({ Search: email }, admin);
  const page = publishers.status === 200 ? json(publishers.data) : undefined;
  called.push(check(page?.data[0]?.email === email, 'listPublishers', publishers.data));

  // A site of that account: added pending, sent back with a reason, found in the review queue.
  const game = `orval game ${Date.now()}`;
  const site = await api.createSite(
    { publisherId: id, name: game, url: 'https://orval.example.com', framework: 'phaser' },
    admin,
  );
  const added = site.status === 200 ? json(site.data) : undefined;
  called.push(check(added?.status === 'pending', 'createSite', site.data));
  const reviewed = await api.updateSite(
    added?.siteId ?? 'none',
    { status: 'pending', statusReason: 'Add a privacy policy' },
    admin,
  );
  const reason = reviewed.status === 200 ? json(reviewed.data)?.statusReason : undefined;
  called.push(check(reason === 'Add a privacy policy', 'updateSite', reviewed.data));
  const queue = await api.listAllSites({ Search: game }, admin);
  const inQueue = queue.status === 200 ? json(queue.data) : undefined;
  called.push(
    check(
      inQueue?.data.some((s) => s.siteId === added?.siteId),
      'listAllSites',
      queue.data,
    ),
  );
  return called;
}

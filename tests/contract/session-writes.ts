/**
 * The session's requests that change something: keys created, listed and revoked, keys made by an operator for
 * a publisher, alerts acknowledged, webhooks removed, tested and added, and revenue loaded, each with its
 * documented errors (403, 404, 409, 413, 415 among them).
 */
import type { ContractWorld } from './server';

export interface Exchange {
  operationId: string;
  /** What the request tries, for the table. */
  what: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path and query. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  expect: number;
  /**
   * The request breaks the document on purpose (no key, an unknown parameter, a wrong body): Prism's
   * request violations are expected then; its response violations never are.
   */
  invalid?: true;
}

export const JSON_TYPES = ['application/json', 'text/json', 'text/plain'];
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
export const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

export function writeRequests(world: ContractWorld, add: (e: Exchange) => void) {
  const { keys } = world;
  const json = (k: string, accept?: string) => ({
    'X-Api-Key': k,
    'Content-Type': 'application/json',
    ...(accept ? { Accept: accept } : {}),
  });
  const newKey = JSON.stringify({
    label: 'contract',
    siteIds: world.siteIds.slice(0, 1),
    expiresAt: '2099-01-01T00:00:00Z',
  });
  const create = { operationId: 'createApiKey', method: 'POST', path: '/api/v1/api-keys' } as const;
  add({ ...create, what: 'no Accept', headers: json(keys.publisher), body: newKey, expect: 200 });
  for (const type of JSON_TYPES)
    add({ ...create, what: `Accept: ${type}`, headers: json(keys.publisher, type), body: newKey, expect: 200 });
  add({
    ...create,
    what: 'bad body',
    headers: json(keys.publisher),
    body: '{"siteIds":["not a uuid"]}',
    expect: 400,
    invalid: true,
  });
  add({ ...create, what: 'site-scoped key', headers: json(keys.siteScoped), body: newKey, expect: 403 });
  add({
    ...create,
    what: 'account full of keys',
    headers: json(keys.full),
    body: '{"label":"one too many"}',
    expect: 409,
  });
  add({
    ...create,
    what: 'body over 16 KiB',
    headers: json(keys.publisher),
    body: JSON.stringify({ label: 'x'.repeat(20_000) }),
    expect: 413,
    invalid: true,
  });
  add({
    ...create,
    what: 'Content-Type: text/plain',
    headers: { ...json(keys.publisher), 'Content-Type': 'text/plain' },
    body: newKey,
    expect: 415,
    invalid: true,
  });
  add({
    ...create,
    what: 'no key',
    headers: { 'Content-Type': 'application/json' },
    body: newKey,
    expect: 401,
    invalid: true,
  });
  add({
    ...create,
    what: 'Accept: application/xml',
    headers: json(keys.publisher, 'application/xml'),
    body: newKey,
    expect: 406,
    invalid: true,
  });

  const revoke = { operationId: 'revokeApiKey', method: 'DELETE' } as const;
  [undefined, ...JSON_TYPES].forEach((type, i) => {
    const path = `/api/v1/api-keys/${world.revocableKeyIds[i]}`;
    add({
      ...revoke,
      what: type ? `Accept: ${type}` : 'no Accept',
      path,
      headers: { 'X-Api-Key': keys.publisher, ...(type ? { Accept: type } : {}) },
      expect: 200,
    });
  });
  add({
    ...revoke,
    what: 'unknown id',
    path: `/api/v1/api-keys/${UNKNOWN_ID}`,
    headers: { 'X-Api-Key': keys.publisher },
    expect: 404,
  });
  add({
    ...revoke,
    what: 'not a uuid (no such key)',
    path: '/api/v1/api-keys/not-a-uuid',
    headers: { 'X-Api-Key': keys.publisher },
    expect: 404,
    invalid: true,
  });
  add({
    ...revoke,
    what: 'unknown parameter',
    path: `/api/v1/api-keys/${UNKNOWN_ID}?nosuch=1`,
    headers: { 'X-Api-Key': keys.publisher },
    expect: 400,
    invalid: true,
  });
  add({
    ...revoke,
    what: 'site-scoped key',
    path: `/api/v1/api-keys/${UNKNOWN_ID}`,
    headers: { 'X-Api-Key': keys.siteScoped },
    expect: 403,
  });
  add({ ...revoke, what: 'no key', path: `/api/v1/api-keys/${UNKNOWN_ID}`, expect: 401, invalid: true });
  add({
    ...revoke,
    what: 'Accept: application/xml',
    path: `/api/v1/api-keys/${UNKNOWN_ID}`,
    headers: { 'X-Api-Key': keys.publisher, Accept: 'application/xml' },
    expect: 406,
    invalid: true,
  });

  const forUser = {
    operationId: 'createApiKeyForUser',
    method: 'POST',
    path: `/api/v1/api-keys/for-user/${world.publisherId}`,
  } as const;
  for (const type of [undefined, ...JSON_TYPES])
    add({
      ...forUser,
      what: type ? `Accept: ${type}` : 'no Accept',
      headers: json(keys.admin, type),
      body: '{"label":"made by an operator"}',
      expect: 200,
    });
  add({ ...forUser, what: 'bad body', headers: json(keys.admin), body: '{"label":7}', expect: 400, invalid: true });
  add({ ...forUser, what: 'publisher key', headers: json(keys.publisher), body: '{}', expect: 403 });
  add({
    ...forUser,
    what: 'unknown account',
    path: `/api/v1/api-keys/for-user/${UNKNOWN_ID}`,
    headers: json(keys.admin),
    body: '{}',
    expect: 404,
  });
  add({
    ...forUser,
    what: 'account full of keys',
    path: `/api/v1/api-keys/for-user/${world.rivalId}`,
    headers: json(keys.admin),
    body: '{}',
    expect: 409,
  });
  add({
    ...forUser,
    what: 'body over 16 KiB',
    headers: json(keys.admin),
    body: JSON.stringify({ label: 'x'.repeat(20_000) }),
    expect: 413,
    invalid: true,
  });
  add({
    ...forUser,
    what: 'Content-Type: text/plain',
    headers: { ...json(keys.admin), 'Content-Type': 'text/plain' },
    body: '{}',
    expect: 415,
    invalid: true,
  });
  add({
    ...forUser,
    what: 'no key',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
    expect: 401,
    invalid: true,
  });
  add({
    ...forUser,
    what: 'Accept: application/xml',
    headers: json(keys.admin, 'application/xml'),
    body: '{}',
    expect: 406,
    invalid: true,
  });

  const acknowledge = (id: string) => ({
    operationId: 'acknowledgeAlert',
    method: 'POST' as const,
    path: `/api/v1/alerts/${id}/acknowledge`,
  });
  const { alerts } = world;
  [undefined, ...JSON_TYPES].forEach((type, i) =>
    add({
      ...acknowledge(alerts.toAcknowledge[i]),
      what: type ? `Accept: ${type}` : 'no Accept',
      headers: { 'X-Api-Key': keys.publisher, ...(type ? { Accept: type } : {}) },
      expect: 200,
    }),
  );
  const publisherKey = { 'X-Api-Key': keys.publisher };
  const scopedKey = { 'X-Api-Key': keys.siteScoped };
  add({ ...acknowledge(alerts.keySite), what: "site-scoped key, its site's alert", headers: scopedKey, expect: 200 });
  add({ ...acknowledge(alerts.toAcknowledge[0]), what: 'acknowledged already', headers: publisherKey, expect: 409 });
  add({ ...acknowledge(UNKNOWN_ID), what: 'unknown id', headers: publisherKey, expect: 404 });
  add({ ...acknowledge(alerts.rival), what: "another account's alert", headers: publisherKey, expect: 404 });
  add({ ...acknowledge(alerts.otherSite), what: "site-scoped key, another site's", headers: scopedKey, expect: 404 });
  add({ ...acknowledge(alerts.account), what: "site-scoped key, the account's", headers: scopedKey, expect: 404 });
  add({ ...acknowledge(alerts.account), what: "an operator's key", headers: { 'X-Api-Key': keys.admin }, expect: 403 });
  add({ ...acknowledge(alerts.account), what: 'no key', expect: 401, invalid: true });
  add({
    ...acknowledge(alerts.account),
    path: `${acknowledge(alerts.account).path}?nosuch=1`,
    what: 'unknown parameter',
    headers: publisherKey,
    expect: 400,
    invalid: true,
  });
  add({
    ...acknowledge(alerts.account),
    what: 'Accept: application/xml',
    headers: { ...publisherKey, Accept: 'application/xml' },
    expect: 406,
    invalid: true,
  });

  webhookRequests(world, add);

  const ingest = { operationId: 'ingestRevenue', method: 'POST', path: '/api/v1/admin/revenue' } as const;
  const site = world.siteIds[0];
  const csv = `day,siteId,country,impressions,clicks,adRequests,revenue\n${day(1)},${site},US,10,1,20,0.5\n`;
  const ndjson = `${JSON.stringify({ day: day(1), siteId: site, country: 'DE', impressions: 10, clicks: 1, adRequests: 20, revenue: 0.5 })}\n`;
  const admin = (type: string, accept?: string) => ({
    'X-Api-Key': keys.admin,
    'Content-Type': type,
    ...(accept ? { Accept: accept } : {}),
  });
  add({ ...ingest, what: 'CSV', headers: admin('text/csv'), body: csv, expect: 200 });
  add({ ...ingest, what: 'NDJSON', headers: admin('application/x-ndjson'), body: ndjson, expect: 200 });
  for (const type of JSON_TYPES)
    add({ ...ingest, what: `CSV, Accept: ${type}`, headers: admin('text/csv', type), body: csv, expect: 200 });
  add({
    ...ingest,
    what: 'owner and siteName',
    path: '/api/v1/admin/revenue?owner=demo@example.com',
    headers: admin('text/csv'),
    body: `day,siteName,country,impressions,clicks,adRequests,revenue\n${day(1)},${world.siteName},FR,10,1,20,0.5\n`,
    expect: 200,
  });
  add({ ...ingest, what: 'bad CSV', headers: admin('text/csv'), body: 'day,nosuch\n1,2\n', expect: 400 });
  add({
    ...ingest,
    what: 'publisher key',
    headers: { ...admin('text/csv'), 'X-Api-Key': keys.publisher },
    body: csv,
    expect: 403,
  });
  const header = 'day,siteId,country,impressions,clicks,adRequests,revenue\n';
  add({
    ...ingest,
    what: '50,001 rows',
    headers: admin('text/csv'),
    body: header + `${day(1)},${site},US,10,1,20,0.5\n`.repeat(50_001),
    expect: 413,
  });
  add({
    ...ingest,
    what: 'Content-Type: application/xml',
    headers: admin('application/xml'),
    body: '<rows/>',
    expect: 415,
    invalid: true,
  });
  add({ ...ingest, what: 'no key', headers: { 'Content-Type': 'text/csv' }, body: csv, expect: 401, invalid: true });
  add({
    ...ingest,
    what: 'Accept: application/xml',
    headers: admin('text/csv', 'application/xml'),
    body: csv,
    expect: 406,
    invalid: true,
  });
}

/**
 * Webhooks removed, tested and added, in that order: demo's account holds 6 of the 10 it may (ContractWorld.webhooks)
 * and 2 once 4 are removed, so the 4 added fit whatever else a session adds; the 409 is the rival's, full.
 */
function webhookRequests(world: ContractWorld, add: (e: Exchange) => void) {
  const { keys, webhooks } = world;
  const publisherKey = { 'X-Api-Key': keys.publisher };
  const withAccept = (type?: string) => ({ ...publisherKey, ...(type ? { Accept: type } : {}) });
  const named = (type?: string) => (type ? `Accept: ${type}` : 'no Accept');
  /** What any request of these three may be answered besides: 403 (site-scoped, operator), 401, 400, 406. */
  const commonErrors = (exchange: Omit<Exchange, 'what' | 'expect'>) => {
    const as = (k: string) => ({ ...exchange.headers, 'X-Api-Key': k });
    add({ ...exchange, what: 'site-scoped key', headers: as(keys.siteScoped), expect: 403 });
    add({ ...exchange, what: "an operator's key", headers: as(keys.admin), expect: 403 });
    const keyless = Object.fromEntries(Object.entries(exchange.headers ?? {}).filter(([name]) => name !== 'X-Api-Key'));
    add({ ...exchange, what: 'no key', headers: keyless, expect: 401, invalid: true });
    add({ ...exchange, what: 'revoked key', headers: as(keys.revoked), expect: 401 });
    add({ ...exchange, what: 'unknown parameter', path: `${exchange.path}?nosuch=1`, expect: 400, invalid: true });
    const xml = { ...exchange.headers, Accept: 'application/xml' };
    add({ ...exchange, what: 'Accept: application/xml', headers: xml, expect: 406, invalid: true });
  };

  const remove = (id: string) => ({
    operationId: 'deleteWebhook',
    method: 'DELETE' as const,
    path: `/api/v1/webhooks/${id}`,
  });
  [undefined, ...JSON_TYPES].forEach((type, i) =>
    add({ ...remove(webhooks.toDelete[i]), what: named(type), headers: withAccept(type), expect: 200 }),
  );
  add({ ...remove(webhooks.toDelete[0]), what: 'removed already', headers: publisherKey, expect: 404 });
  add({ ...remove(UNKNOWN_ID), what: 'unknown id', headers: publisherKey, expect: 404 });
  add({ ...remove(webhooks.rival), what: "another account's webhook", headers: publisherKey, expect: 404 });
  add({ ...remove('not-a-uuid'), what: 'not a uuid', headers: publisherKey, expect: 404, invalid: true });
  commonErrors({ ...remove(webhooks.active), headers: publisherKey });
  add({
    operationId: 'listWebhookDeliveries',
    what: 'a removed webhook',
    method: 'GET',
    path: `/api/v1/webhooks/${webhooks.toDelete[0]}/deliveries`,
    headers: publisherKey,
    expect: 404,
  });

  const test = (id: string) => ({
    operationId: 'testWebhook',
    method: 'POST' as const,
    path: `/api/v1/webhooks/${id}/test`,
  });
  for (const type of [undefined, ...JSON_TYPES])
    add({ ...test(webhooks.active), what: named(type), headers: withAccept(type), expect: 200 });
  add({ ...test(webhooks.off), what: 'a webhook turned off', headers: publisherKey, expect: 409 });
  add({ ...test(UNKNOWN_ID), what: 'unknown id', headers: publisherKey, expect: 404 });
  add({ ...test(webhooks.rival), what: "another account's webhook", headers: publisherKey, expect: 404 });
  add({ ...test(webhooks.toDelete[1]), what: 'a removed webhook', headers: publisherKey, expect: 404 });
  add({ ...test('not-a-uuid'), what: 'not a uuid', headers: publisherKey, expect: 404, invalid: true });
  commonErrors({ ...test(webhooks.active), headers: publisherKey });

  const create = { operationId: 'createWebhook', method: 'POST', path: '/api/v1/webhooks' } as const;
  const json = (k: string, accept?: string) => ({
    'X-Api-Key': k,
    'Content-Type': 'application/json',
    ...(accept ? { Accept: accept } : {}),
  });
  // A public address as a literal: accepted without DNS (the server's sender tries it only on an event).
  const body = (fields: Record<string, unknown> = {}) =>
    JSON.stringify({ url: 'https://93.184.215.14/hook', events: ['revenue.drop', 'revenue.spike'], ...fields });
  for (const type of [undefined, ...JSON_TYPES]) {
    const description = type ? { description: `Contract, ${type}` } : {};
    add({ ...create, what: named(type), headers: json(keys.publisher, type), body: body(description), expect: 200 });
  }
  const refused = (what: string, fields: Record<string, unknown>, invalid = false) =>
    add({
      ...create,
      what,
      headers: json(keys.publisher),
      body: body(fields),
      expect: 400,
      ...(invalid ? { invalid } : {}),
    });
  refused('http URL', { url: 'http://93.184.215.14/hook' });
  refused('a private address', { url: 'https://10.1.2.3/hook' });
  refused('a host that does not resolve', { url: 'https://hooks.invalid/hook' });
  refused('unknown event type', { events: ['revenue.dropped'] }, true);
  refused('unknown field', { secret: 'whsec_mine' }, true);
  refused('no event types', { events: [] }, true);
  add({ ...create, what: 'account full of webhooks', headers: json(keys.full), body: body(), expect: 409 });
  add({
    ...create,
    what: 'body over 16 KiB',
    headers: json(keys.publisher),
    body: body({ description: 'x'.repeat(20_000) }),
    expect: 413,
    invalid: true,
  });
  add({
    ...create,
    what: 'Content-Type: text/plain',
    headers: { ...json(keys.publisher), 'Content-Type': 'text/plain' },
    body: body(),
    expect: 415,
    invalid: true,
  });
  commonErrors({ ...create, headers: json(keys.publisher), body: body() });
}

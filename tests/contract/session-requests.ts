/**
 * The Prism session's requests: every operation with every media type it documents (by Accept), every
 * documented parameter (FilterList with two values, Search, Filter, sorting and paging, dates, siteIds), names
 * and enum values in mixed letter case, and every documented error status that a request can provoke (the
 * 500 and 503 come from failing servers: tests/contract/session-faults.ts).
 */
import type { ContractWorld } from './server';
import { publisherRequests } from './session-publishers';
import { siteReviewRequests } from './session-sites';
import { day, type Exchange, JSON_TYPES, writeRequests } from './session-writes';

export type { Exchange };

const PAGED_TYPES = [...JSON_TYPES, 'text/csv'];
const EXPORT_TYPES = ['text/csv', 'application/x-ndjson'];
const UNKNOWN_KEY = `rpk_${'x'.repeat(38)}`;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

type Headers = Record<string, string>;

export function sessionRequests(world: ContractWorld): Exchange[] {
  const { keys } = world;
  const exchanges: Exchange[] = [];
  /** A GET; `invalid` when it breaks the document on purpose. */
  const get = (operationId: string, what: string, path: string, headers: Headers, expect: number, invalid = false) =>
    exchanges.push({ operationId, what, method: 'GET', path, headers, expect, ...(invalid ? { invalid } : {}) });
  const key = (k: string) => ({ 'X-Api-Key': k });
  const publisher = key(keys.publisher);
  const scoped = key(keys.siteScoped);
  const range = { fromDate: day(30), toDate: day(0) };
  const twoSites = world.siteIds.slice(0, 2).join(',');
  const reportParams = {
    page: '1',
    pageSize: '5',
    sortBy: 'revenueAmount',
    sortDirection: 'desc',
    Search: 'a',
    Filter: 'impressions>0;revenueAmount>=0',
    'FilterList[country]': 'US,DE',
  };
  const mixedCase = { PAGESIZE: '3', sortby: 'RevenueAmount', SortDirection: 'DESC' };

  /** Every documented Accept, and none. */
  const eachType = (operationId: string, path: string, types: string[], headers: Headers = {}) => {
    get(operationId, 'no Accept', path, headers, 200);
    for (const type of types) get(operationId, `Accept: ${type}`, path, { ...headers, Accept: type }, 200);
  };
  /** What any GET can be answered: 400 for an unknown parameter, 406 for an Accept it cannot meet. */
  const anyErrors = (operationId: string, path: string, headers: Headers = {}) => {
    get(operationId, 'unknown parameter', `${path}${path.includes('?') ? '&' : '?'}nosuch=1`, headers, 400, true);
    get(operationId, 'Accept: application/xml', path, { ...headers, Accept: 'application/xml' }, 406, true);
  };
  /** ...and with a key: 401 for no key, a revoked one, an unknown one as Bearer. */
  const keyedErrors = (operationId: string, path: string) => {
    get(operationId, 'no key', path, {}, 401, true);
    get(operationId, 'revoked key', path, key(keys.revoked), 401);
    get(operationId, 'unknown Bearer key', path, { Authorization: `Bearer ${UNKNOWN_KEY}` }, 401);
    anyErrors(operationId, path, publisher);
  };

  for (const [operationId, path] of [
    ['getHealth', '/api/v1/health'],
    ['getOpenApiDocument', '/api/v1/openapi.json'],
  ]) {
    eachType(operationId, path, JSON_TYPES);
    anyErrors(operationId, path);
  }

  eachType('listSites', '/api/v1/sites', JSON_TYPES, publisher);
  get('listSites', 'Bearer key', '/api/v1/sites', { Authorization: `Bearer ${keys.publisher}` }, 200);
  get('listSites', 'site-scoped key', '/api/v1/sites', scoped, 200);
  keyedErrors('listSites', '/api/v1/sites');

  const totalsAt = (params: Headers) => `/api/v1/reports/totals${query(params)}`;
  const totals = totalsAt({ ...range, siteIds: twoSites });
  eachType('getTotals', totals, JSON_TYPES, publisher);
  const mixedTotals = totalsAt({ FROMDATE: range.fromDate, todate: range.toDate, SiteIds: twoSites });
  get('getTotals', 'mixed-case names', mixedTotals, publisher, 200);
  get('getTotals', 'site-scoped key, its site', totalsAt({ siteIds: world.siteIds[0] }), scoped, 200);
  get('getTotals', 'invalid date', totalsAt({ fromDate: '2026-02-30' }), publisher, 400, true);
  get('getTotals', 'site outside the key', totalsAt({ siteIds: world.siteIds[1] }), scoped, 403);
  keyedErrors('getTotals', totals);

  const byCountryAt = (params: Headers) => `/api/v1/reports/by-country${query(params)}`;
  const byCountry = byCountryAt({ ...reportParams, ...range, siteIds: twoSites, Filter: 'cpm>0;country!=FR' });
  eachType('getRevenueByCountry', byCountry, PAGED_TYPES, publisher);
  const mixedByCountry = byCountryAt({ ...mixedCase, 'filterList[Country]': 'US,DE', search: 'united' });
  get('getRevenueByCountry', 'mixed-case names and enum values', mixedByCountry, publisher, 200);
  const mixedValues = byCountryAt({ sortBy: 'RevenueAmount', sortDirection: 'DESC' });
  get('getRevenueByCountry', 'mixed-case enum values', mixedValues, publisher, 200);
  get('getRevenueByCountry', 'FilterList.field', byCountryAt({ 'FilterList.country': 'US,DE' }), publisher, 200);
  get('getRevenueByCountry', 'site-scoped key', byCountryAt({ pageSize: '2' }), scoped, 200);
  get('getRevenueByCountry', 'pageSize 0', byCountryAt({ pageSize: '0' }), publisher, 400, true);
  get('getRevenueByCountry', 'site outside the key', byCountryAt({ siteIds: world.siteIds[1] }), scoped, 403);
  get('getRevenueByCountry', "another account's site", byCountryAt({ siteIds: world.rivalSiteId }), publisher, 403);
  keyedErrors('getRevenueByCountry', byCountry);

  const rowParams = { ...reportParams, sortBy: 'createdAt', Filter: `createdAt>=${range.fromDate};impressions>0` };
  const mixedRows = query({ ...mixedCase, sortby: 'GameName', search: 'a', FILTER: 'clicks>=0' });
  for (const [operationId, base] of [
    ['getCountryRows', '/api/v1/reports/countries'],
    ['getLegacyCountryRows', '/api/v1/revenues/countries'],
  ]) {
    const rows = `${base}${query(rowParams)}`;
    eachType(operationId, rows, PAGED_TYPES, publisher);
    get(operationId, 'mixed-case names and enum values', `${base}${mixedRows}`, publisher, 200);
    get(operationId, 'bad Filter', `${base}?Filter=nosuch==1`, publisher, 400, true);
    get(operationId, 'site-scoped key', rows, scoped, 403);
    keyedErrors(operationId, rows);
  }
  const legacy = `/api/v1/revenues/countries${query({ pageSize: '2', 'FilterList[country]': 'US,DE' })}`;
  get('getLegacyCountryRows', '?apiKey=', `${legacy}&apiKey=${keys.publisher}`, {}, 200);
  get('getLegacyCountryRows', '?apiKey= as CSV', `${legacy}&apiKey=${keys.publisher}`, { Accept: 'text/csv' }, 200);
  get('getLegacyCountryRows', '?apiKey= unknown', `${legacy}&apiKey=${UNKNOWN_KEY}`, {}, 401);

  const exportParams = Object.fromEntries(Object.entries(rowParams).filter(([name]) => !name.startsWith('page')));
  const exportAt = (params: Headers) => `/api/v1/reports/countries/export${query(params)}`;
  const exported = exportAt(exportParams);
  eachType('exportCountryRows', exported, EXPORT_TYPES, publisher);
  const mixedExport = exportAt({
    SORTBY: 'RevenueAmount',
    sortdirection: 'Desc',
    filter: `createdAt>=${range.fromDate}`,
  });
  const ndjson = { ...publisher, Accept: 'application/x-ndjson' };
  get('exportCountryRows', 'mixed-case names and enum values', mixedExport, ndjson, 200);
  get('exportCountryRows', 'page (not an export parameter)', exportAt({ page: '2' }), publisher, 400, true);
  get('exportCountryRows', 'site-scoped key', exported, scoped, 403);
  keyedErrors('exportCountryRows', exported);

  eachType('listApiKeys', '/api/v1/api-keys', JSON_TYPES, publisher);
  get('listApiKeys', 'site-scoped key', '/api/v1/api-keys', scoped, 403);
  keyedErrors('listApiKeys', '/api/v1/api-keys');

  const activityAt = (params: Headers) => `/api/v1/audit-events${query(params)}`;
  const activity = activityAt({
    page: '1',
    pageSize: '5',
    sortBy: 'at',
    sortDirection: 'desc',
    Search: 'key',
    Filter: `at>=${range.fromDate}`,
    'FilterList[kind]': 'key.created,key.revoked',
  });
  eachType('listAuditEvents', activity, PAGED_TYPES, publisher);
  get(
    'listAuditEvents',
    'mixed-case names and enum values',
    activityAt({ SORTBY: 'Kind', sortdirection: 'ASC' }),
    publisher,
    200,
  );
  get(
    'listAuditEvents',
    "an operator's key: every account",
    activityAt({ Filter: `accountId==${world.publisherId}` }),
    key(keys.admin),
    200,
  );
  get('listAuditEvents', 'bad Filter', activityAt({ Filter: 'nosuch==1' }), publisher, 400, true);
  get('listAuditEvents', 'site-scoped key', activity, scoped, 403);
  keyedErrors('listAuditEvents', activity);

  const alertsAt = (params: Headers) => `/api/v1/alerts${query(params)}`;
  const alertList = alertsAt({
    page: '1',
    pageSize: '5',
    sortBy: 'day',
    sortDirection: 'desc',
    Search: 'usual',
    Filter: `state==open;day>=${range.fromDate}`,
    'FilterList[kind]': 'revenue.drop,revenue.spike',
  });
  eachType('listAlerts', alertList, PAGED_TYPES, publisher);
  const mixedAlerts = alertsAt({
    SORTBY: 'Kind',
    sortdirection: 'ASC',
    filter: 'State==OPEN',
    'filterList[KIND]': 'Revenue.Drop,DATA.MISSING',
  });
  get('listAlerts', 'mixed-case names and enum values', mixedAlerts, publisher, 200);
  get('listAlerts', 'FilterList.field', alertsAt({ 'FilterList.kind': 'data.missing' }), publisher, 200);
  get('listAlerts', 'site-scoped key: its sites only', alertList, scoped, 200);
  get('listAlerts', "an operator's key", alertList, key(keys.admin), 403);
  get('listAlerts', 'bad Filter', alertsAt({ Filter: 'nosuch==1' }), publisher, 400, true);
  keyedErrors('listAlerts', alertList);

  const webhooksAt = (params: Headers) => `/api/v1/webhooks${query(params)}`;
  const { webhooks } = world;
  const hookUrl = (name: string) => `https://hooks.invalid/contract/${name}`;
  const webhookList = webhooksAt({
    page: '1',
    pageSize: '5',
    sortBy: 'createdAt',
    sortDirection: 'desc',
    Search: 'contract',
    Filter: `createdAt>=${range.fromDate};url=@hooks.invalid`,
    'FilterList[url]': `${hookUrl('active')},${hookUrl('off')}`,
  });
  eachType('listWebhooks', webhookList, PAGED_TYPES, publisher);
  const mixedWebhooks = webhooksAt({
    SORTBY: 'DisabledAt',
    sortdirection: 'DESC',
    SEARCH: 'CONTRACT WEBHOOK',
    filter: 'DisabledReason=@ABOUT A DAY',
    'filterList[URL]': hookUrl('OFF').toUpperCase(),
  });
  get('listWebhooks', 'mixed-case names and values', mixedWebhooks, publisher, 200);
  get('listWebhooks', 'FilterList.field', webhooksAt({ 'FilterList.id': webhooks.active }), publisher, 200);
  get('listWebhooks', 'site-scoped key', webhookList, scoped, 403);
  get('listWebhooks', "an operator's key", webhookList, key(keys.admin), 403);
  get('listWebhooks', 'bad Filter', webhooksAt({ Filter: 'secret==x' }), publisher, 400, true);
  keyedErrors('listWebhooks', webhookList);

  const deliveriesAt = (id: string, params: Headers = {}) =>
    `/api/v1/webhooks/${id}/deliveries${Object.keys(params).length ? query(params) : ''}`;
  const deliveryParams = {
    page: '1',
    pageSize: '5',
    sortBy: 'attempts',
    sortDirection: 'desc',
    Search: 'revenue',
    Filter: `attempts>=1;createdAt>=${range.fromDate};lastStatus==200`,
    'FilterList[status]': 'delivered,failed',
  };
  const deliveries = deliveriesAt(webhooks.active, deliveryParams);
  eachType('listWebhookDeliveries', deliveries, PAGED_TYPES, publisher);
  const mixedDeliveries = deliveriesAt(webhooks.active, {
    SORTBY: 'EventType',
    sortdirection: 'ASC',
    filter: 'Status==DELIVERED',
    'filterList[EVENTTYPE]': 'Revenue.Drop,DATA.MISSING',
  });
  get('listWebhookDeliveries', 'mixed-case names and values', mixedDeliveries, publisher, 200);
  const failed = deliveriesAt(webhooks.off, { 'FilterList.status': 'failed' });
  get('listWebhookDeliveries', 'FilterList.field, a webhook turned off', failed, publisher, 200);
  get('listWebhookDeliveries', 'unknown webhook', deliveriesAt(UNKNOWN_ID), publisher, 404);
  get('listWebhookDeliveries', "another account's webhook", deliveriesAt(webhooks.rival), publisher, 404);
  get('listWebhookDeliveries', 'not a uuid', deliveriesAt('not-a-uuid'), publisher, 404, true);
  get('listWebhookDeliveries', 'site-scoped key', deliveries, scoped, 403);
  get('listWebhookDeliveries', "an operator's key", deliveries, key(keys.admin), 403);
  const badFilter = deliveriesAt(webhooks.active, { Filter: 'payload==x' });
  get('listWebhookDeliveries', 'bad Filter', badFilter, publisher, 400, true);
  keyedErrors('listWebhookDeliveries', deliveries);

  const statementsAt = (params: Headers) => `/api/v1/payments/statements${query(params)}`;
  const statements = statementsAt({
    page: '1',
    pageSize: '5',
    sortBy: 'month',
    sortDirection: 'desc',
    Search: '20',
    Filter: 'earnings>=0',
    'FilterList[status]': 'paid,finalized',
  });
  eachType('listStatements', statements, PAGED_TYPES, publisher);
  get('listStatements', 'mixed-case names', statementsAt({ SORTBY: 'Earnings', sortdirection: 'ASC' }), publisher, 200);
  get('listStatements', 'bad Filter', statementsAt({ Filter: 'nosuch==1' }), publisher, 400, true);
  get('listStatements', 'site-scoped key', statements, scoped, 403);
  keyedErrors('listStatements', statements);

  const balance = '/api/v1/payments/balance';
  eachType('getBalance', balance, JSON_TYPES, publisher);
  get('getBalance', 'site-scoped key', balance, scoped, 403);
  keyedErrors('getBalance', balance);

  // Last month: closed by the demo data's payments history.
  const statement = `/api/v1/payments/statements/${day(new Date().getUTCDate()).slice(0, 7)}`;
  eachType('getStatement', statement, [...JSON_TYPES, 'application/pdf'], publisher);
  get('getStatement', 'a malformed month', '/api/v1/payments/statements/2026-13', publisher, 400, true);
  get('getStatement', 'a month without a statement', '/api/v1/payments/statements/1999-01', publisher, 404);
  get('getStatement', 'site-scoped key', statement, scoped, 403);
  keyedErrors('getStatement', statement);

  writeRequests(world, (e) => exchanges.push(e));
  publisherRequests(world, (e) => exchanges.push(e));
  siteReviewRequests(world, (e) => exchanges.push(e));
  return exchanges;
}

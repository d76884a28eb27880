/**
 * Calls every operation through the client orval generated (../generated/orval/api.ts, unedited; its fetch is
 * ./orval-fetch.ts), as an API user would: FilterList with two values, CSV as text, NDJSON as a stream, the
 * legacy feed with ?apiKey=, keys created, listed and revoked, a key made by an admin, revenue loaded.
 * Returns a line per call, in order: the operation's name, or what failed.
 */
import * as api from '../generated/orval/api';
import { check, type Credentials, revenueCsv } from './credentials';
import { setOrigin } from './orval-fetch';

export async function callEveryOperation(who: Credentials): Promise<string[]> {
  setOrigin(who.origin);
  const publisher = { headers: { 'X-Api-Key': who.publisherKey } };
  const admin = { headers: { 'X-Api-Key': who.adminKey } };
  const range = { fromDate: who.day, toDate: who.day };
  const called: string[] = [];

  const health = await api.getHealth();
  called.push(check(health.status === 200 && health.data.status === 'ok', 'getHealth', health.data));
  const document = await api.getOpenApiDocument();
  called.push(
    check(document.status === 200 && document.data.openapi.startsWith('3.1'), 'getOpenApiDocument', document.data),
  );
  const sites = await api.listSites(publisher);
  called.push(check(sites.status === 200 && sites.data.length === who.siteIds.length, 'listSites', sites.data));

  const totals = await api.getTotals({ ...range, siteIds: who.siteIds.join(',') }, publisher);
  called.push(check(totals.status === 200 && typeof totals.data.totalRevenue === 'number', 'getTotals', totals.data));

  const byCountry = await api.getRevenueByCountry(
    { ...range, sortBy: 'revenueAmount', sortDirection: 'desc', FilterList: { country: 'US,DE' } },
    publisher,
  );
  const countries = byCountry.status === 200 && typeof byCountry.data !== 'string' ? byCountry.data.data : null;
  called.push(
    check(
      countries?.every((row) => ['US', 'DE'].includes(row.country ?? '')),
      'getRevenueByCountry',
      byCountry.data,
    ),
  );

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
  const lines = 'stream' in exported ? (await exported.stream.text()).split('\n').filter(Boolean) : null;
  called.push(
    check(
      lines?.every((l) => JSON.parse(l).createdAt),
      'exportCountryRows',
      exported.status,
    ),
  );

  // The legacy feed takes the key as ?apiKey= (the document's apiKeyQuery scheme), not in a header.
  const legacy = await api.getLegacyCountryRows({
    pageSize: 2,
    apiKey: who.publisherKey,
  } as api.GetLegacyCountryRowsParams);
  called.push(check(legacy.status === 200 && legacy.headers.get('deprecation'), 'getLegacyCountryRows', legacy.data));

  const created = await api.createApiKey({ label: 'orval client', siteIds: who.siteIds.slice(0, 1) }, publisher);
  const keyId = created.status === 200 ? created.data.key.id : 'none';
  called.push(check(created.status === 200 && created.data.apiKey.startsWith('rpk_'), 'createApiKey', created.data));
  const listed = await api.listApiKeys(publisher);
  called.push(check(listed.status === 200 && listed.data.some((k) => k.id === keyId), 'listApiKeys', listed.data));
  const revoked = await api.revokeApiKey(keyId, publisher);
  called.push(check(revoked.status === 200, 'revokeApiKey', revoked.data));

  const forUser = await api.createApiKeyForUser(who.publisherId, { label: 'by an admin' }, admin);
  called.push(
    check(forUser.status === 200 && forUser.data.apiKey.startsWith('rpk_'), 'createApiKeyForUser', forUser.data),
  );
  const ingested = await api.ingestRevenue(revenueCsv(who), undefined, admin);
  called.push(check(ingested.status === 200 && ingested.data.rows === 1, 'ingestRevenue', ingested.data));
  return called;
}

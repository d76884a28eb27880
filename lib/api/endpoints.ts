/**
 * The one table of the API's endpoints: method, path, access, parameters, body, response, errors. The route
 * files (lib/api/routes.ts), the OpenAPI document (lib/api/openapi.ts), the reference page at /docs and the
 * tests' route table are all made from it; nothing else lists endpoints.
 */
import { z } from 'zod';
import { CSV_TYPE, NDJSON_TYPE } from '@/lib/http/negotiate';
import { StreamedBody } from '@/lib/http/render';
import { todayUtc, totalsQuery } from '@/lib/query';
import {
  ApiKeyResponse,
  createApiKey,
  createApiKeyForUser,
  createApiKeyInput,
  CreateApiKeyResponse,
  listApiKeys,
  revokeApiKey,
} from '@/lib/keys';
import {
  exportRows,
  BY_COUNTRY_COLUMNS,
  ROW_COLUMNS,
  getRows,
  getRevenueByCountry,
  getTotals,
  byCountryQuery,
  rowsExportQuery,
  rowsQuery,
  PagedRevenueByCountry,
  PagedRevenueRows,
  RevenueRowResponse,
  RevenueTotalResponse,
} from '@/lib/reports';
import { ImportSummary, INGEST_MAX_BYTES, ingestQuery, ingestRevenue } from '@/lib/revenue-in';
import { INGEST_REQUEST_DEADLINE_MS } from '@/lib/platform/limits';
import { listSites, SiteResponse } from '@/lib/accounts';
import { bodyFormat, INGEST_BODY_TYPES } from './ingest-body';
import { Health } from './schemas';
import { endpoint, type ApiEndpoint } from './endpoint';
import { openApiDocumentOf, withServers } from './openapi';
import { originOf } from './origin';
import { streamBody } from '@/lib/http/body';

const LEGACY_HEADERS = {
  Deprecation: 'true',
  Sunset: 'Wed, 30 Jun 2027 23:59:59 GMT',
  Link: '</api/v1/reports/countries>; rel="successor-version"',
};
const PAGED_TYPES = ['application/json', 'text/json', 'text/plain', CSV_TYPE] as const;
/** The rows report's parameters, answer and errors: the same at its path and at its deprecated one. */
const ROWS_REPORT = {
  query: rowsQuery,
  response: { status: 200, description: 'The rows', schema: PagedRevenueRows, mediaTypes: PAGED_TYPES },
  errors: [400, 403, 406],
} satisfies Partial<ApiEndpoint>;
const idParam = (name: string, description: string) => z.object({ [name]: z.uuid().meta({ description }) });

export const ENDPOINTS: ApiEndpoint[] = [
  endpoint({
    method: 'GET',
    path: '/api/v1/health',
    operationId: 'getHealth',
    tag: 'Service',
    access: 'public',
    summary: 'Liveness: a constant answer, no key and no database',
    description:
      'Answers `{"status":"ok"}` while the server runs; it does not touch the database, so it stays up during a database outage.',
    response: { status: 200, description: 'The service is up', schema: Health },
    errors: [],
    // Caches may keep it but must ask again each time (no-cache): a liveness answer nobody checked says nothing.
    run: { cacheControl: 'no-cache', handler: async () => ({ status: 'ok' }) },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Service',
    access: 'public',
    summary: 'This document: the API contract as OpenAPI 3.1, no key needed',
    description: 'The OpenAPI 3.1 document of every operation; its servers entry is the origin the request reached.',
    response: { status: 200, description: 'The OpenAPI document', schema: z.looseObject({ openapi: z.string() }) },
    errors: [],
    run: {
      cacheControl: 'public, max-age=300',
      anyOrigin: true,
      handler: async ({ request }) =>
        withServers(openApiDocument(), [{ url: originOf(request.headers, request.url), description: 'This server' }]),
    },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/sites',
    operationId: 'listSites',
    tag: 'Sites',
    access: 'key',
    summary: "The sites (games) of the account, or the key's sites for a site-scoped key",
    description:
      "Each site's id, name, URL, status and audience; the ids are what the reports' siteIds parameter takes.",
    response: { status: 200, description: 'Sites, oldest first', schema: z.array(SiteResponse) },
    errors: [],
    run: { handler: ({ principal }) => listSites(principal) },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/reports/totals',
    operationId: 'getTotals',
    tag: 'Reports',
    access: 'key',
    summary: 'Totals for a set of sites and a range of UTC days',
    description:
      'Impressions, ad requests, revenue, CPM and fill rate summed over the range and the sites (all readable sites by default).',
    query: totalsQuery,
    response: { status: 200, description: 'Sums over the range', schema: RevenueTotalResponse },
    errors: [400, 403, 404],
    run: { handler: ({ principal, input }) => getTotals(principal, input) },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/reports/by-country',
    operationId: 'getRevenueByCountry',
    tag: 'Reports',
    access: 'key',
    summary: 'Revenue by country: one row per viewer country over the range, paged, sortable and filterable',
    description:
      "Sorted with sortBy and sortDirection, narrowed with Search, Filter and FilterList; as text/csv the page's rows, with the totals in X-Total-Rows and X-Total-Pages.",
    query: byCountryQuery,
    response: {
      status: 200,
      description: 'One row per country',
      schema: PagedRevenueByCountry,
      mediaTypes: PAGED_TYPES,
    },
    errors: [400, 403, 404, 406],
    run: { csvColumns: BY_COUNTRY_COLUMNS, handler: ({ principal, input }) => getRevenueByCountry(principal, input) },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/reports/countries',
    operationId: 'getCountryRows',
    tag: 'Reports',
    access: 'key',
    summary: 'Rows: one per site × viewer country × UTC day of the account, paged (account-level keys only)',
    description:
      "The data as stored, sortable and filterable like by country; a site-scoped key gets 403. As text/csv the page's rows, with the totals in X-Total-Rows and X-Total-Pages.",
    ...ROWS_REPORT,
    run: { csvColumns: ROW_COLUMNS, handler: ({ principal, input }) => getRows(principal, input) },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/reports/countries/export',
    operationId: 'exportCountryRows',
    tag: 'Reports',
    access: 'key',
    summary: 'Export: all the rows that a Filter, Search and sort select, in one streamed CSV or NDJSON download',
    description: 'Counts as one request. Choose the format with Accept: text/csv (default) or application/x-ndjson.',
    query: rowsExportQuery,
    response: {
      status: 200,
      description: 'An attachment; NDJSON lines are RevenueWithCountryResponse objects',
      schema: RevenueRowResponse,
      mediaTypes: [CSV_TYPE, NDJSON_TYPE],
    },
    errors: [400, 403, 406],
    run: {
      offers: [CSV_TYPE, NDJSON_TYPE],
      handler: async ({ principal, input, type }) => {
        const format = type === NDJSON_TYPE ? 'ndjson' : 'csv';
        return new StreamedBody(
          await exportRows(principal, input, format),
          `revenue-rows-${todayUtc()}.${format}`,
          principal.userId,
        );
      },
    },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/revenues/countries',
    operationId: 'getLegacyCountryRows',
    tag: 'Reports',
    access: 'key',
    summary: 'Deprecated legacy feed: the rows, with the key also accepted as ?apiKey=',
    description:
      'Use GET /api/v1/reports/countries instead: the same rows and parameters, with the key in a header. Sunset 2027-06-30.',
    deprecated: true,
    ...ROWS_REPORT,
    headers: LEGACY_HEADERS,
    run: {
      keyInQuery: true,
      csvColumns: ROW_COLUMNS,
      handler: ({ principal, input }) => getRows(principal, input),
    },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/api-keys',
    operationId: 'listApiKeys',
    tag: 'API keys',
    access: 'key',
    summary: "The account's API keys, newest first (never their secrets)",
    description: 'Every key of the account with its label, prefix, sites and dates; an account-level key is needed.',
    response: {
      status: 200,
      description: 'Keys, revoked and expired ones included',
      schema: z.array(ApiKeyResponse),
    },
    errors: [403],
    run: { handler: ({ principal }) => listApiKeys(principal) },
  }),
  endpoint({
    method: 'POST',
    path: '/api/v1/api-keys',
    operationId: 'createApiKey',
    tag: 'API keys',
    access: 'key',
    summary: 'Create a key for the account; the response holds the raw key, shown this once',
    description: 'An account-level key is needed. Keep the returned key: only its hash is stored.',
    body: createApiKeyInput.meta({ id: 'CreateApiKeyRequest' }),
    response: { status: 200, description: 'The new key and its secret', schema: CreateApiKeyResponse },
    errors: [400, 403, 409, 415],
    run: { handler: async ({ principal, readBody }) => createApiKey(principal, await readBody(createApiKeyInput)) },
  }),
  endpoint({
    method: 'DELETE',
    path: '/api/v1/api-keys/{id}',
    operationId: 'revokeApiKey',
    tag: 'API keys',
    access: 'key',
    summary: 'Revoke a key of the account; it answers 401 from then on',
    description: 'Takes effect at once; revoking a revoked key again answers 200 and keeps its first revocation time.',
    pathParams: idParam('id', "The key's id"),
    response: { status: 200, description: 'Revoked (no body)' },
    errors: [403, 404],
    run: { handler: async ({ principal, params: p }) => void (await revokeApiKey(principal, p.id)) },
  }),
  endpoint({
    method: 'POST',
    path: '/api/v1/api-keys/for-user/{userId}',
    operationId: 'createApiKeyForUser',
    tag: 'API keys',
    access: 'admin',
    summary: "Admins: create a key for a publisher's account",
    description: "The same as creating a key, for the publisher named in the path; an admin's key is needed.",
    pathParams: idParam('userId', "The publisher's account id"),
    body: createApiKeyInput,
    response: { status: 200, description: 'The new key and its secret', schema: CreateApiKeyResponse },
    errors: [400, 403, 404, 409, 415],
    run: {
      handler: async ({ principal, params: p, readBody }) =>
        createApiKeyForUser(principal, p.userId, await readBody(createApiKeyInput)),
    },
  }),
  endpoint({
    method: 'POST',
    path: '/api/v1/admin/revenue',
    operationId: 'ingestRevenue',
    tag: 'Data',
    access: 'admin',
    summary: 'Admins: upsert daily revenue rows (CSV or NDJSON), all or nothing',
    description: 'The same validation and upsert as `npm run import`: at most 50,000 rows and 16 MiB per request.',
    query: ingestQuery,
    body: { mediaTypes: INGEST_BODY_TYPES, description: 'CSV with a header line, or one JSON object per line' },
    response: { status: 200, description: 'What the import did', schema: ImportSummary },
    errors: [400, 403, 413, 415],
    run: {
      deadlineMs: INGEST_REQUEST_DEADLINE_MS,
      handler: ({ principal, request, input }) =>
        ingestRevenue(principal, {
          format: bodyFormat(request.headers.get('content-type')),
          body: streamBody(request, INGEST_MAX_BYTES),
          owner: input.owner,
        }),
    },
  }),
];

/** The OpenAPI document of this table (built once). */
export const openApiDocument = () => openApiDocumentOf(ENDPOINTS);

/** The reports' operations: the account's sites, totals, by country, the rows, their export and the legacy feed. */
import { CSV_TYPE, NDJSON_TYPE } from '@/lib/http/negotiate';
import { StreamedBody } from '@/lib/http/render';
import { todayUtc, totalsQuery } from '@/lib/query';
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
import { listSites, SiteResponse } from '@/lib/sites';
import { z } from 'zod';
import { endpoint, PAGED_TYPES, type ApiEndpoint } from '../endpoint';

const LEGACY_HEADERS = {
  Deprecation: 'true',
  Sunset: 'Wed, 30 Jun 2027 23:59:59 GMT',
  Link: '</api/v1/reports/countries>; rel="successor-version"',
};
/** The rows report's parameters, answer and errors: the same at its path and at its deprecated one. */
const ROWS_REPORT = {
  query: rowsQuery,
  response: { status: 200, description: 'The rows', schema: PagedRevenueRows, mediaTypes: PAGED_TYPES },
  errors: [400, 403, 406],
} satisfies Partial<ApiEndpoint>;

export const REPORT_ENDPOINTS: ApiEndpoint[] = [
  endpoint({
    method: 'GET',
    path: '/api/v1/sites',
    operationId: 'listSites',
    spec: true,
    tag: 'Sites',
    access: 'key',
    summary: "The sites (games) of the account, or the key's sites for a site-scoped key",
    description:
      "Each site's id, name, URL, status and audience; the ids are what the reports' siteIds parameter takes.",
    response: { status: 200, description: 'Sites, oldest first', schema: z.array(SiteResponse) },
    errors: [],
    run: { accountData: true, handler: ({ principal }) => listSites(principal) },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/reports/totals',
    operationId: 'getTotals',
    spec: true,
    tag: 'Reports',
    access: 'key',
    summary: 'Totals for a set of sites and a range of UTC days',
    description:
      'Impressions, ad requests, revenue, CPM and fill rate summed over the range and the sites (all readable sites by default).',
    query: totalsQuery,
    response: { status: 200, description: 'Sums over the range', schema: RevenueTotalResponse },
    errors: [400, 403],
    run: { accountData: true, handler: ({ principal, input }) => getTotals(principal, input) },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/reports/by-country',
    operationId: 'getRevenueByCountry',
    spec: true,
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
    errors: [400, 403, 406],
    run: {
      accountData: true,
      csvColumns: BY_COUNTRY_COLUMNS,
      handler: ({ principal, input }) => getRevenueByCountry(principal, input),
    },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/reports/countries',
    operationId: 'getCountryRows',
    spec: true,
    tag: 'Reports',
    access: 'key',
    summary: 'Rows: one per site × viewer country × UTC day of the account, paged (account-level keys only)',
    description:
      "The data as stored, sortable and filterable like by country; a site-scoped key gets 403. As text/csv the page's rows, with the totals in X-Total-Rows and X-Total-Pages.",
    ...ROWS_REPORT,
    run: { accountData: true, csvColumns: ROW_COLUMNS, handler: ({ principal, input }) => getRows(principal, input) },
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
    download: { filename: 'revenue-rows-<today>.<csv|ndjson>' },
    run: {
      accountData: true,
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
    spec: true,
    tag: 'Reports',
    access: 'key',
    summary: 'Deprecated legacy feed: the rows, with the key also accepted as ?apiKey=',
    description:
      'Use GET /api/v1/reports/countries instead: the same rows and parameters, with the key in a header. Sunset 2027-06-30.',
    deprecated: true,
    ...ROWS_REPORT,
    headers: LEGACY_HEADERS,
    run: {
      accountData: true,
      keyInQuery: true,
      csvColumns: ROW_COLUMNS,
      handler: ({ principal, input }) => getRows(principal, input),
    },
  }),
];

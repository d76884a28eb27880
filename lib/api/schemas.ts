/**
 * The API's response bodies as zod schemas, named as in the spec: the OpenAPI document (lib/api/openapi.ts)
 * is generated from them, and the integration suite checks every response it receives against that document.
 */
import { z } from 'zod';

const uuid = z.uuid();
const timestamp = z.iso
  .datetime({ offset: true })
  .meta({ description: 'ISO-8601 date-time in UTC', example: '2026-11-24T00:00:00.000Z' });
const usd = (description: string) => z.number().min(0).meta({ description });
const count = (description: string) => z.int().min(0).meta({ description });
const country = z
  .string()
  .length(2)
  .nullable()
  .meta({ description: 'ISO 3166-1 alpha-2 code of the viewers', example: 'US' });

export const SiteResponse = z
  .object({
    siteId: uuid,
    name: z.string().nullable(),
    url: z.string().nullable(),
    framework: z.string().nullable(),
    status: z.enum(['live', 'approved', 'pending']).nullable(),
    dailyActiveUsers: z.int().nullable(),
    monthlyActiveUsers: z.int().nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'SiteResponse', description: 'A site (a game) of the account.' });

export const ApiKeyResponse = z
  .object({
    id: uuid,
    label: z.string().nullable(),
    keyPrefix: z.string().nullable().meta({ description: 'The first characters of the key, to recognise it by' }),
    siteIds: z
      .array(uuid)
      .nullable()
      .meta({ description: 'The sites a site-scoped key may read; null for account-level keys' }),
    lastUsedAt: timestamp.nullable(),
    expiresAt: timestamp.nullable(),
    revokedAt: timestamp.nullable(),
    createdAt: timestamp,
    isActive: z.boolean().meta({ description: 'Neither revoked nor expired' }),
  })
  .meta({ id: 'ApiKeyResponse', description: 'A client API key, without its secret.' });

export const CreateApiKeyResponse = z
  .object({
    key: ApiKeyResponse,
    apiKey: z.string().meta({ description: 'The raw key: shown in this response only, never again' }),
  })
  .meta({ id: 'CreateApiKeyResponse' });

export const RevenueTotalResponse = z
  .object({
    totalImpressions: count('Impressions served'),
    totalRequests: count('Ad requests'),
    averageCpm: usd('Revenue per 1,000 impressions, USD'),
    totalRevenue: usd('Revenue, USD'),
    fillRate: z.number().min(0).max(1).meta({ description: 'Impressions per ad request' }),
  })
  .meta({ id: 'RevenueTotalResponse' });

const RevenueByCountryResponse = z
  .object({
    country,
    revenueAmount: usd('Revenue, USD'),
    cpm: usd('Revenue per 1,000 impressions, USD'),
    adRequests: count('Ad requests'),
    impressions: count('Impressions served'),
    fillRate: z.number().min(0).max(1),
  })
  .meta({ id: 'RevenueByCountryResponse' });

export const RevenueWithCountryResponse = z
  .object({
    impressions: count('Impressions served'),
    clicks: count('Clicks'),
    adRequests: count('Ad requests'),
    cpm: usd('Revenue per 1,000 impressions, USD'),
    revenueAmount: usd('Revenue, USD'),
    fillRate: z.number().min(0).max(1),
    country,
    createdAt: timestamp.meta({ description: 'The UTC day of the row, at midnight' }),
    updatedAt: timestamp,
    gameId: uuid.meta({ description: 'The site (game)' }),
    userId: uuid.meta({ description: 'The account' }),
    adUnitId: z.string().nullable(),
    gameName: z.string().nullable(),
  })
  .meta({ id: 'RevenueWithCountryResponse', description: 'One site × country × UTC day.' });

const PageMeta = z
  .object({
    page: z.int().min(1),
    pageSize: z.int().min(1).max(1000),
    sortBy: z.string().nullable(),
    sortDirection: z.enum(['asc', 'desc']),
    totalRows: z.int().min(0),
    totalPages: z.int().min(0),
  })
  .meta({ id: 'PageMeta' });

const paged = <T extends z.ZodType>(row: T, id: string) =>
  z.object({ data: z.array(row), meta: PageMeta }).meta({ id });
export const PagedRevenueByCountry = paged(RevenueByCountryResponse, 'PagedRevenueByCountryResponse');
export const PagedRevenueWithCountry = paged(RevenueWithCountryResponse, 'PagedRevenueWithCountryResponse');

export const ImportSummary = z
  .object({
    rows: count('Rows in the body'),
    inserted: count('New rows'),
    updated: count('Rows whose numbers changed'),
    unchanged: count('Rows already as sent'),
    sitesCreated: count('Sites created (never over HTTP)'),
    ms: count('Time taken'),
    rowsPerSecond: count('Rows per second'),
  })
  .meta({ id: 'ImportSummary' });

export const Health = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    instance: z.string(),
    requestId: z.string(),
    errors: z
      .array(z.object({ parameter: z.string(), line: z.int().optional(), detail: z.string() }))
      .optional()
      .meta({ description: 'Each invalid input, by name' }),
    errorCount: z.int().optional().meta({ description: 'How many errors there were, when only some are listed' }),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details.' });

/**
 * The reports' responses as the API answers them, under their OpenAPI component ids. Each is declared once here:
 * its type is inferred from it, the query grammar's fields are derived from it (./fields.ts), and the SQL of
 * each field (./field-sql.ts) and the mapping from the services' integer sums (./responses.ts) are typed to
 * cover exactly its fields. Nothing here reaches the database: the browser loads it through ./fields.ts.
 */
import { z } from '@/lib/shared/zod';
import { pagedSchema } from '@/lib/query/paging';
import { count, country, fillRate, timestamp, usd, uuid } from '@/lib/shared/response-fields';

export const RevenueTotalResponse = z
  .object({
    totalImpressions: count('Impressions served'),
    totalRequests: count('Ad requests'),
    averageCpm: usd('Revenue per 1,000 impressions, USD'),
    totalRevenue: usd('Revenue, USD'),
    fillRate,
  })
  .meta({ id: 'RevenueTotalResponse', description: 'One set of sums over the range and sites.' });
export type RevenueTotalResponse = z.infer<typeof RevenueTotalResponse>;

export const RevenueByCountryResponse = z
  .object({
    country,
    revenueAmount: usd('Revenue, USD'),
    cpm: usd('Revenue per 1,000 impressions, USD'),
    adRequests: count('Ad requests'),
    impressions: count('Impressions served'),
    fillRate,
  })
  .meta({ id: 'RevenueByCountryResponse', description: "One viewer country's sums over the range and sites." });
export type RevenueByCountryResponse = z.infer<typeof RevenueByCountryResponse>;

/** A row: one site × country × UTC day, joined with its site (component id RevenueWithCountryResponse). */
export const RevenueRowResponse = z
  .object({
    impressions: count('Impressions served'),
    clicks: count('Clicks'),
    adRequests: count('Ad requests'),
    cpm: usd('Revenue per 1,000 impressions, USD'),
    revenueAmount: usd('Revenue, USD'),
    fillRate,
    country,
    createdAt: timestamp.meta({ description: 'The UTC day of the row, at midnight' }),
    updatedAt: timestamp,
    gameId: uuid.meta({ description: 'The site (game)' }),
    userId: uuid.meta({ description: 'The account' }),
    adUnitId: z.string().nullable(),
    gameName: z.string().nullable(),
  })
  .meta({ id: 'RevenueWithCountryResponse', description: 'One row: one site × viewer country × UTC day.' });
export type RevenueRowResponse = z.infer<typeof RevenueRowResponse>;

export const PagedRevenueByCountry = pagedSchema(RevenueByCountryResponse, 'PagedRevenueByCountryResponse');
export const PagedRevenueRows = pagedSchema(RevenueRowResponse, 'PagedRevenueWithCountryResponse');

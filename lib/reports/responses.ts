/**
 * From the services' figures, in integer micro-dollars, to the API's shapes, in dollars (./schemas.ts): one
 * function per shape, each typed to return its schema's type, so that a field the schema gains and the mapping
 * lacks (or the other way round) does not compile. Plain object mappings, never a zod parse: the rows export
 * maps every one of millions of rows.
 */
import { cpmOf, fillRateOf, usdFromMicros, type Sums } from '@/lib/shared/money';
import type { RevenueByCountryResponse, RevenueRowResponse, RevenueTotalResponse } from './schemas';

/** What totals and by-country rows are computed from: sums over a range. */
export type RevenueSums = Pick<Sums, 'revenueMicros' | 'impressions' | 'adRequests'>;

/** A by-country row as summed: the country's sums. */
export interface CountrySums extends RevenueSums {
  country: string | null;
}

/** A row as read: one site × country × UTC day of revenue_daily, with its site's name and ad unit. */
export interface RevenueRow {
  siteId: string;
  userId: string;
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  country: string;
  impressions: number;
  clicks: number;
  adRequests: number;
  revenueMicros: number;
  updatedAt: Date;
  adUnitId: string | null;
  gameName: string | null;
}

export const totalsResponse = (sums: RevenueSums): RevenueTotalResponse => ({
  totalImpressions: sums.impressions,
  totalRequests: sums.adRequests,
  averageCpm: cpmOf(sums.revenueMicros, sums.impressions),
  totalRevenue: usdFromMicros(sums.revenueMicros),
  fillRate: fillRateOf(sums.impressions, sums.adRequests),
});

export const byCountryResponse = (sums: CountrySums): RevenueByCountryResponse => ({
  country: sums.country,
  revenueAmount: usdFromMicros(sums.revenueMicros),
  cpm: cpmOf(sums.revenueMicros, sums.impressions),
  adRequests: sums.adRequests,
  impressions: sums.impressions,
  fillRate: fillRateOf(sums.impressions, sums.adRequests),
});

/**
 * toISOString keeping its last answer: rows come in runs with the same updatedAt (one import, one day), and
 * formatting a date is the costliest part of a row when millions are exported.
 */
let lastUpdated = { ms: NaN, iso: '' };
function isoTimestamp(date: Date): string {
  const ms = date.getTime();
  if (ms !== lastUpdated.ms) lastUpdated = { ms, iso: date.toISOString() };
  return lastUpdated.iso;
}

/** A row as the API answers it (RevenueWithCountryResponse). */
export function rowResponse(row: RevenueRow): RevenueRowResponse {
  return {
    impressions: row.impressions,
    clicks: row.clicks,
    adRequests: row.adRequests,
    cpm: cpmOf(row.revenueMicros, row.impressions),
    revenueAmount: usdFromMicros(row.revenueMicros),
    fillRate: fillRateOf(row.impressions, row.adRequests),
    country: row.country,
    createdAt: `${row.day}T00:00:00.000Z`,
    updatedAt: isoTimestamp(row.updatedAt),
    gameId: row.siteId,
    userId: row.userId,
    adUnitId: row.adUnitId,
    gameName: row.gameName,
  };
}

import type { FieldDef } from '@/lib/query/fields';

/**
 * The fields of each row type as the query grammar sees them (sortBy, Filter, FilterList), without their SQL
 * (lib/reports/field-sql.ts), so that the dashboard's filter builder can check a filter in the browser
 * by the same definitions the API uses.
 */
const num = (name: string): FieldDef => ({ name, type: 'number' });

/** RevenueByCountryResponse: metric terms filter after aggregation (HAVING). */
export const byCountryFields: FieldDef[] = [
  { name: 'country', type: 'string' },
  num('revenueAmount'),
  num('cpm'),
  num('adRequests'),
  num('impressions'),
  num('fillRate'),
];

/** RevenueWithCountryResponse: one row per site × country × day, joined with its site. */
export const rowFields: FieldDef[] = [
  num('impressions'),
  num('clicks'),
  num('adRequests'),
  num('cpm'),
  num('revenueAmount'),
  num('fillRate'),
  { name: 'country', type: 'string' },
  { name: 'createdAt', type: 'date' },
  { name: 'updatedAt', type: 'date' },
  { name: 'gameId', type: 'uuid' },
  { name: 'userId', type: 'uuid' },
  { name: 'adUnitId', type: 'string' },
  { name: 'gameName', type: 'string' },
];

import { fieldsOf } from '@/lib/query/fields';
import { RevenueByCountryResponse, RevenueRowResponse } from './schemas';

/**
 * The fields of each row type as the query grammar sees them (sortBy, Filter, FilterList): every field of its
 * response schema, in order, without their SQL (lib/reports/field-sql.ts), so that the dashboard's filter
 * builder can check a filter in the browser by the same definitions the API uses.
 */

/** RevenueByCountryResponse: metric terms filter after aggregation (HAVING). */
export const byCountryFields = fieldsOf(RevenueByCountryResponse);
export type ByCountryField = keyof RevenueByCountryResponse;

/** Rows (RevenueWithCountryResponse): one per site × country × day, joined with its site. */
export const rowFields = fieldsOf(RevenueRowResponse);
export type RowField = keyof RevenueRowResponse;

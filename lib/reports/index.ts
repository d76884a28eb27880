/** Reports: totals, by country, rows (per site × country × day), by site and by day, read from the rollup. */
export { getRevenueBySite } from './by-site';
export type { SiteRevenue } from './by-site';
export { getDailyRevenue } from './daily';
export type { DailyPoint } from './daily';
export { getDataSpan } from './data-span';
export type { DataSpan } from './data-span';
export { byCountryQuery, rowsExportQuery, rowsQuery } from './field-sql';
export {
  BY_COUNTRY_COLUMNS,
  ROW_COLUMNS,
  getRows,
  getRevenueByCountry,
  getSumsByCountry,
  getTotals,
  resolveReportRange,
} from './reports';
export type { ByCountryInput, ReportRange } from './reports';
export type { RevenueRow } from './responses';
export {
  PagedRevenueByCountry,
  PagedRevenueRows,
  RevenueByCountryResponse,
  RevenueRowResponse,
  RevenueTotalResponse,
} from './schemas';
export type { Paged } from '@/lib/query';
export { exportRows } from './rows-export';

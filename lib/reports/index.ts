/** Reports: totals, by country, rows (per site × country × day), by site and by day, read from the rollup. */
export { getRevenueBySite } from './by-site';
export type { SiteRevenue } from './by-site';
export { getDailyRevenue } from './daily';
export type { DailyPoint } from './daily';
export { getDataSpan } from './data-span';
export type { DataSpan } from './data-span';
export { byCountryQuery, countryRowsExportQuery, countryRowsQuery } from './field-sql';
export {
  BY_COUNTRY_COLUMNS,
  COUNTRY_ROW_COLUMNS,
  getCountryRows,
  getRevenueByCountry,
  getTotals,
  resolveReportRange,
} from './reports';
export type { ByCountryInput, Paged, ReportRange, RevenueByCountryResponse, RevenueTotalResponse } from './reports';
export { exportCountryRows } from './rows-export';
export type { FeedRow } from './rows-export';

/** The query grammar shared by API route handlers and dashboard pages. */
export { QueryParams } from './params';
export { type FieldDef } from './fields';
export { pageMeta, pageOffset, PAGE_SIZE_MAX, DEFAULT_PAGE_SIZE, type Paged, type Paging } from './paging';
export {
  resolveRange,
  todayUtc,
  addDays,
  daysBetweenInclusive,
  eachDay,
  isDay,
  MAX_RANGE_DAYS,
  type DateRange,
} from './dates';
export { isUuid } from './site-ids';
export { parseFilter, parseFilterList, MAX_FILTER_LIST_VALUES, MAX_FILTER_TERMS, type FilterExpr } from './filter';
export { filterToSql, searchToSql } from './filter-sql';
export { SEARCH_MAX_LENGTH } from './search';
export { collect, throwIfAny } from './collect';
export {
  readQuery,
  totalsQuery,
  byCountryQueryOf,
  pagedRowsQueryOf,
  rowsQueryOf,
  type QuerySchema,
  type SiteDayInput,
  type RowsInput,
  type PagedRowsInput,
} from './input';
export { selectPage, utcDay } from './select-page';

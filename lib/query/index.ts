/** The query grammar shared by API route handlers and dashboard pages (DESIGN §1). */
export { QueryParams, PAGED_PARAMS, type QueryInput } from './params';
export { fieldLookup, fieldNames, type FieldDef } from './fields';
export { parsePaging, pageMeta, pageOffset, PAGE_SIZE_MAX, DEFAULT_PAGE_SIZE, type Paging, type PageMeta } from './paging';
export {
  parseDateRange, todayUtc, addDays, daysBetweenInclusive, eachDay, isDay, MAX_RANGE_DAYS, type DateRange,
} from './dates';
export { parseSiteIds, isUuid } from './site-ids';
export {
  parseFilter, parseFilterList, parseFilterParams, MAX_FILTER_TERMS,
  type FilterExpr, type FilterTerm, type FilterOp,
} from './filter';
export { filterToSql, searchToSql, parseSearch, SEARCH_MAX_LENGTH } from './filter-sql';
export { collect, throwIfAny } from './collect';

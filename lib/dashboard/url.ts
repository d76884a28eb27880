/**
 * The dashboard's state lives in its URL, so every view can be shared and reloaded. This module is the one
 * place that reads it and writes links to it. Names are matched in any letter case, as the API matches them,
 * so a shared link may say `Page=3` or `From=…`.
 *
 * The filter bar's `from`, `to` and `sites` are the API's `fromDate`, `toDate` and `siteIds`; a table's
 * `page`, `pageSize`, `sortBy`, `sortDirection`, `Search`, `Filter` and `FilterList[…]` keep the API's names.
 * Reading goes through the API's own schemas (lib/query), so a view accepts exactly what the API would and
 * hands the services the same typed input. (Only the grammar's drizzle-free files are imported: client
 * components use the link writers.)
 */
import { ValidationError } from '@/lib/shared/errors';
import { readQuery, totalsQuery, type QuerySchema, type SiteDayInput } from '@/lib/query/input';
import { QueryParams } from '@/lib/query/params';
import { DEFAULT_PAGE_SIZE, pageMeta, pageOffset, parsePage, parsePageSize } from '@/lib/query/paging';

export type SearchParams = Record<string, string | string[] | undefined>;

/** The filter bar's parameters and the API's names for them. */
const FILTER_BAR = { from: 'fromDate', to: 'toDate', sites: 'siteIds' } as const;
type FilterBarName = keyof typeof FILTER_BAR;
const filterBarName = (name: string) =>
  name.toLowerCase() in FILTER_BAR ? (name.toLowerCase() as FilterBarName) : null;
const API_NAMES_OF_FILTER_BAR = new Set(Object.values(FILTER_BAR).map((n) => n.toLowerCase()));

/** A page's `searchParams` (repeated names as arrays) or a request's, as name-value pairs in order. */
const pairsOf = (searchParams: SearchParams | URLSearchParams): [string, string][] =>
  searchParams instanceof URLSearchParams
    ? [...searchParams]
    : Object.entries(searchParams).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v): [string, string] => [name, v]),
      );

/**
 * The URL as the API would be asked: the filter bar's names renamed, its API names dropped (the URL's
 * `fromDate` is not the view's range: only `from` is), everything else as given.
 */
function asApiQuery(searchParams: SearchParams | URLSearchParams): QueryParams {
  const query = new URLSearchParams();
  for (const [name, value] of pairsOf(searchParams)) {
    const bar = filterBarName(name);
    if (bar) query.append(FILTER_BAR[bar], value);
    else if (!API_NAMES_OF_FILTER_BAR.has(name.toLowerCase())) query.append(name, value);
  }
  return QueryParams.from(query);
}

/**
 * A view's input from its URL by an endpoint's schema, or the 400 to show in its place. Names the schema
 * does not take are ignored (a link may carry `utm_…`).
 */
export function readView<T>(schema: QuerySchema<T>, searchParams: SearchParams | URLSearchParams): T | ValidationError {
  try {
    return readQuery(schema, asApiQuery(searchParams));
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
}

/**
 * The input of a view a page builds itself, from values the grammar takes (a page number, a known kind): a
 * refusal here is a bug, not the visitor's input, so it throws.
 */
export function readOwnView<T>(schema: QuerySchema<T>, params: Record<string, string>): T {
  const input = readView(schema, params);
  if (input instanceof Error) throw input;
  return input;
}

/** The first value of a page's search parameter (a repeated one arrives as an array). */
export const firstOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The filter bar's sites and days; the range is resolved by the service, from the account's default. */
export const readSiteDay = (searchParams: SearchParams | URLSearchParams): SiteDayInput | ValidationError =>
  readView(totalsQuery, searchParams);

/** The first value of a parameter, its name in any letter case; for a view's own settings (a client-side sort). */
export const paramOf = (searchParams: SearchParams | URLSearchParams, name: string): string | undefined =>
  pairsOf(searchParams).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

/** `current` with some parameters changed: every letter-case spelling of a changed name is replaced; null removes it. */
export function withChanges(current: string, changes: Record<string, string | null>): URLSearchParams {
  const params = new URLSearchParams(current);
  const lower = Object.keys(changes).map((name) => name.toLowerCase());
  for (const name of [...params.keys()]) if (lower.includes(name.toLowerCase())) params.delete(name);
  for (const [name, value] of Object.entries(changes)) if (value !== null) params.set(name, value);
  return params;
}

/** A page's `searchParams` (repeated names as arrays) as a query string. */
export const queryStringOf = (searchParams: SearchParams) => new URLSearchParams(pairsOf(searchParams)).toString();

/** A link to this view with some parameters changed (paging, sorting) and the rest kept. */
export const hrefWith = (searchParams: SearchParams, changes: Record<string, string | null>) =>
  `?${withChanges(queryStringOf(searchParams), changes)}`;

/** `?as=<publisher id>`: the publisher whose dashboard an admin is looking at, read-only (lib/dashboard/viewer.ts). */
export const VIEW_AS = 'as';

/**
 * What every view shares and a link to another view keeps: the filter bar's range and sites, the one country
 * the dashboard is narrowed to (a row of the Countries table), what the figures are compared with, and whose
 * dashboard it is.
 */
const CARRIED = [...(Object.keys(FILTER_BAR) as FilterBarName[]), 'country', 'compare', VIEW_AS] as const;
type CarriedName = (typeof CARRIED)[number];

/**
 * A link to another view that keeps the shared state (CARRIED, in any spelling, written canonically) and
 * nothing else of this view, with `changes` applied: navigation, "all countries", a reset, "view revenue" for
 * one site, one country.
 */
export function viewHref(
  path: string,
  current: SearchParams | URLSearchParams,
  changes: Partial<Record<CarriedName, string | null>> = {},
): string {
  const given = pairsOf(current);
  const carried = new URLSearchParams();
  for (const name of CARRIED) {
    const value = name in changes ? changes[name] : given.find(([key]) => key.toLowerCase() === name)?.[1];
    if (value) carried.set(name, value);
  }
  return carried.size > 0 ? `${path}?${carried}` : path;
}

const NO_FILTERS = { from: null, to: null, sites: null, country: null, compare: null } as const;

/** A link to a view with its filters cleared (a reset, a page without filters), on the same publisher's dashboard. */
export const clearedViewHref = (path: string, current: SearchParams | URLSearchParams) =>
  viewHref(path, current, NO_FILTERS);

/** The same page of another account (`?as=`), its filters cleared: the sites differ from account to account. */
export const otherAccountHref = (path: string, current: SearchParams | URLSearchParams, accountId: string) =>
  viewHref(path, current, { ...NO_FILTERS, as: accountId });

/**
 * A plain list's page from the URL (`page`, `pageSize`), with its meta for <Pagination>. A hand-edited
 * value that is not a page shows the first page rather than an error; a page past the end is empty.
 */
export function listPage(searchParams: SearchParams, totalRows: number, defaultPageSize = DEFAULT_PAGE_SIZE) {
  const read = (name: string, fallback: number, parse: (raw: string) => number) => {
    const raw = paramOf(searchParams, name);
    try {
      return raw === undefined ? fallback : parse(raw);
    } catch {
      return fallback;
    }
  };
  const page = read('page', 1, parsePage);
  const pageSize = read('pageSize', defaultPageSize, parsePageSize);
  const paging = { page, pageSize, sortBy: null, sortDirection: 'asc' } as const;
  const { totalPages } = pageMeta(paging, totalRows);
  return { page, pageSize, totalRows, totalPages, offset: pageOffset(paging) };
}

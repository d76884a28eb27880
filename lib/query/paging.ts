/**
 * page / pageSize / sortBy / sortDirection (spec §4.1, DESIGN §3). All problems are reported together so a
 * caller fixing a URL sees every mistake at once.
 */
import { ValidationError, type FieldError } from '@/lib/errors';
import { fieldLookup, fieldNames, type FieldDef } from './fields';
import type { QueryParams } from './params';

export const DEFAULT_PAGE_SIZE = 20;
export const PAGE_SIZE_MAX = 1000;
/** Pages are int32 in the spec; larger numbers would also overflow OFFSET arithmetic. */
const PAGE_MAX = 2 ** 31 - 1;

export interface Paging {
  page: number;
  pageSize: number;
  /** Canonical field name, or null when no sort was requested (the service still orders by a tie-breaker). */
  sortBy: string | null;
  sortDirection: 'asc' | 'desc';
}

export interface PageMeta extends Paging {
  totalRows: number;
  totalPages: number;
}

/** Plain decimal digits only: "1.5", "1e3", "+2", " 2" and "" are all rejected rather than guessed at. */
function parseInteger(
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
  parameter: string,
  errors: FieldError[],
): number {
  if (raw === undefined) return fallback;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (Number.isInteger(n) && n >= min && n <= max) return n;
  errors.push({ parameter, detail: `must be an integer between ${min} and ${max}, got ${JSON.stringify(raw)}` });
  return fallback;
}

export function parsePaging(params: QueryParams, opts: { fields: readonly FieldDef[] }): Paging {
  const errors: FieldError[] = [];
  const page = parseInteger(params.get('page'), 1, 1, PAGE_MAX, 'page', errors);
  const pageSize = parseInteger(params.get('pageSize'), DEFAULT_PAGE_SIZE, 1, PAGE_SIZE_MAX, 'pageSize', errors);

  let sortBy: string | null = null;
  const rawSortBy = params.get('sortBy');
  if (rawSortBy !== undefined) {
    const def = fieldLookup(opts.fields)(rawSortBy);
    if (def) sortBy = def.name;
    else {
      errors.push({
        parameter: 'sortBy',
        detail: `unknown field ${JSON.stringify(rawSortBy)}; allowed: ${fieldNames(opts.fields)}`,
      });
    }
  }

  let sortDirection: Paging['sortDirection'] = 'asc';
  const rawDirection = params.get('sortDirection');
  if (rawDirection !== undefined) {
    const lower = rawDirection.toLowerCase();
    if (lower === 'asc' || lower === 'desc') sortDirection = lower;
    else errors.push({ parameter: 'sortDirection', detail: `must be "asc" or "desc", got ${JSON.stringify(rawDirection)}` });
  }

  if (errors.length > 0) throw new ValidationError(errors);
  return { page, pageSize, sortBy, sortDirection };
}

/** The `meta` object of the paged envelope. A page past the end is fine: it simply has no rows. */
export function pageMeta(paging: Paging, totalRows: number): PageMeta {
  const { page, pageSize, sortBy, sortDirection } = paging;
  return { page, pageSize, sortBy, sortDirection, totalRows, totalPages: Math.ceil(totalRows / pageSize) };
}

/** OFFSET for the page; a number because page ≤ 2^31-1 and pageSize ≤ 1000 stay below 2^53. */
export function pageOffset(paging: Paging): number {
  return (paging.page - 1) * paging.pageSize;
}

/**
 * page / pageSize / sortBy / sortDirection. All problems are reported together so a
 * caller fixing a URL sees every mistake at once.
 */
import { z } from '@/lib/shared/zod';
import { badRequest } from '@/lib/shared/errors';
import { fieldLookup, fieldNames, type FieldDef } from './fields';

export const DEFAULT_PAGE_SIZE = 20;
export const PAGE_SIZE_MAX = 1000;
/** Pages are int32 in the OpenAPI document; larger numbers would also overflow OFFSET arithmetic. */
export const PAGE_MAX = 2 ** 31 - 1;

export interface Paging {
  page: number;
  pageSize: number;
  /** Canonical field name, or null when no sort was requested (the service still orders by a tie-breaker). */
  sortBy: string | null;
  sortDirection: 'asc' | 'desc';
}

/** The `meta` object of the paged envelope, as the API answers it. */
export const PageMeta = z
  .object({
    page: z.int().min(1),
    pageSize: z.int().min(1).max(PAGE_SIZE_MAX),
    sortBy: z.string().nullable(),
    sortDirection: z.enum(['asc', 'desc']),
    totalRows: z.int().min(0),
    totalPages: z.int().min(0),
  })
  .meta({ id: 'PageMeta' });
export type PageMeta = z.infer<typeof PageMeta>;

/** A page of rows and its meta: the schema of a paged response, under its component id. */
export const pagedSchema = <Row extends z.ZodType>(row: Row, id: string) =>
  z.object({ data: z.array(row), meta: PageMeta }).meta({ id });
export type Paged<Row> = { data: Row[]; meta: PageMeta };

/** Plain decimal digits only: "1.5", "1e3", "+2", " 2" and "" are all rejected rather than guessed at. */
function parseInteger(raw: string, min: number, max: number, parameter: string): number {
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (Number.isInteger(n) && n >= min && n <= max) return n;
  throw badRequest(parameter, `must be an integer between ${min} and ${max}, got ${JSON.stringify(raw)}`);
}

export const parsePage = (raw: string) => parseInteger(raw, 1, PAGE_MAX, 'page');
export const parsePageSize = (raw: string) => parseInteger(raw, 1, PAGE_SIZE_MAX, 'pageSize');

/** The canonical name of a sortable field, in any letter case. */
export function parseSortBy(raw: string, fields: readonly FieldDef[]): string {
  const def = fieldLookup(fields)(raw);
  if (!def) throw badRequest('sortBy', `unknown field ${JSON.stringify(raw)}; allowed: ${fieldNames(fields)}`);
  return def.name;
}

export function parseSortDirection(raw: string): Paging['sortDirection'] {
  const lower = raw.toLowerCase();
  if (lower === 'asc' || lower === 'desc') return lower;
  throw badRequest('sortDirection', `must be "asc" or "desc", got ${JSON.stringify(raw)}`);
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

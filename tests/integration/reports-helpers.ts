/**
 * Shared helpers of the reports-*.test.ts files. Expectations are derived independently of the services:
 * shapes are the tables below (the fields clients rely on), sums come from hand-written SQL over revenue_daily.
 */
import { sql, type SQL } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '@/db/client';
import { DEMO_IDS, DEMO_SITES } from '@/db/seed-data';
import { get, type ApiResult } from '../support/api';

export const DEMO_SITE_IDS = DEMO_SITES.filter((s) => s.userId === DEMO_IDS.users.demo).map((s) => s.id);
export const RIVAL_SITE_IDS = DEMO_SITES.filter((s) => s.userId === DEMO_IDS.users.rival).map((s) => s.id);
export const NONEXISTENT_SITE = '0badc0de-0000-4000-8000-000000000000';

// ---- days (own arithmetic, not lib/query's) --------------------------------------------------------

export const shiftDay = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
export const nowDay = () => new Date().toISOString().slice(0, 10);

// ---- SQL -----------------------------------------------------------------------------------------

/** Rows of a raw query on either driver (postgres.js returns an array, PGlite `{ rows }`). */
export async function sqlRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

export const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

export interface Sums {
  impressions: number;
  adRequests: number;
  revenueMicros: number;
  clicks: number;
  rows: number;
}

const SUMS = sql`coalesce(sum(impressions), 0)::text as impressions, coalesce(sum(ad_requests), 0)::text as "adRequests",
  coalesce(sum(revenue_micros), 0)::text as "revenueMicros", coalesce(sum(clicks), 0)::text as clicks, count(*)::text as rows`;

const toSums = (r: Record<string, unknown>): Sums => ({
  impressions: Number(r.impressions),
  adRequests: Number(r.adRequests),
  revenueMicros: Number(r.revenueMicros),
  clicks: Number(r.clicks),
  rows: Number(r.rows),
});

/** Sums of revenue_daily for the sites and inclusive UTC days. */
export async function sqlSums(db: Db, siteIds: readonly string[], from: string, to: string): Promise<Sums> {
  const [row] = await sqlRows(
    db,
    sql`select ${SUMS} from revenue_daily where site_id = any(${uuidArray(siteIds)}) and day between ${from}::date and ${to}::date`,
  );
  return toSums(row);
}

/** The same sums per country, keyed by country code. */
export async function sqlSumsByCountry(db: Db, siteIds: readonly string[], from: string, to: string) {
  const rows = await sqlRows(
    db,
    sql`select trim(country) as country, ${SUMS} from revenue_daily
        where site_id = any(${uuidArray(siteIds)}) and day between ${from}::date and ${to}::date group by country`,
  );
  return new Map(rows.map((r) => [String(r.country), toSums(r)]));
}

// ---- numbers ---------------------------------------------------------------------------------------

export const micros = (usd: number) => Math.round(usd * 1e6);

/** `actual` equals num/den (0 when den is 0) up to floating-point noise. */
export function expectRatio(actual: number, num: number, den: number, scale = 1) {
  const expected = den === 0 ? 0 : (num / den) * scale;
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(expected)));
}

// ---- shapes -------------------------------------------------------------------------------------------

type Kind = 'uuid' | 'string' | 'int32' | 'double' | 'datetime' | 'status';
type Shape = Record<string, [Kind, 'nullable' | 'required']>;

export const SITE_SHAPE: Shape = {
  siteId: ['uuid', 'required'],
  name: ['string', 'nullable'],
  url: ['string', 'nullable'],
  framework: ['string', 'nullable'],
  status: ['status', 'nullable'],
  dailyActiveUsers: ['int32', 'nullable'],
  monthlyActiveUsers: ['int32', 'nullable'],
  createdAt: ['datetime', 'required'],
};
export const TOTALS_SHAPE: Shape = {
  totalImpressions: ['int32', 'required'],
  totalRequests: ['int32', 'required'],
  averageCpm: ['double', 'required'],
  totalRevenue: ['double', 'required'],
  fillRate: ['double', 'required'],
};
export const BY_COUNTRY_SHAPE: Shape = {
  country: ['string', 'nullable'],
  revenueAmount: ['double', 'required'],
  cpm: ['double', 'required'],
  adRequests: ['int32', 'required'],
  impressions: ['int32', 'required'],
  fillRate: ['double', 'required'],
};
export const ROW_SHAPE: Shape = {
  impressions: ['int32', 'required'],
  clicks: ['int32', 'required'],
  adRequests: ['int32', 'required'],
  cpm: ['double', 'required'],
  revenueAmount: ['double', 'required'],
  fillRate: ['double', 'required'],
  country: ['string', 'nullable'],
  createdAt: ['datetime', 'required'],
  updatedAt: ['datetime', 'required'],
  gameId: ['uuid', 'required'],
  userId: ['uuid', 'required'],
  adUnitId: ['string', 'nullable'],
  gameName: ['string', 'nullable'],
};
const META_SHAPE = ['page', 'pageSize', 'sortBy', 'sortDirection', 'totalRows', 'totalPages'];

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function kindOk(kind: Kind, v: unknown): boolean {
  switch (kind) {
    case 'uuid':
      return typeof v === 'string' && UUID_RE.test(v);
    case 'string':
      return typeof v === 'string';
    case 'status':
      return v === 'live' || v === 'approved' || v === 'pending';
    case 'int32':
      return Number.isInteger(v) && (v as number) >= -(2 ** 31) && (v as number) < 2 ** 31;
    case 'double':
      return typeof v === 'number' && Number.isFinite(v);
    case 'datetime':
      return typeof v === 'string' && DATETIME_RE.test(v) && !Number.isNaN(Date.parse(v));
  }
}

/** Exactly the shape's fields, each of its type; null only where the shape allows it. */
export function expectShape(obj: unknown, shape: Shape, what = 'row') {
  expect(obj, what).toBeTypeOf('object');
  expect(Object.keys(obj as object).sort(), `${what} fields`).toEqual(Object.keys(shape).sort());
  for (const [field, [kind, nullability]] of Object.entries(shape)) {
    const v = (obj as Record<string, unknown>)[field];
    const ok = (v === null && nullability === 'nullable') || kindOk(kind, v);
    expect(ok, `${what}.${field} = ${JSON.stringify(v)} should be ${kind} (${nullability})`).toBe(true);
  }
}

/** A paged envelope: `{data, meta}` and nothing else; every row of `shape`. */
export function expectPaged(res: ApiResult, shape: Shape) {
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  expect(Object.keys(res.json).sort()).toEqual(['data', 'meta']);
  expect(Object.keys(res.json.meta).sort()).toEqual([...META_SHAPE].sort());
  expect(Array.isArray(res.json.data)).toBe(true);
  for (const row of res.json.data) expectShape(row, shape);
  const { meta } = res.json;
  for (const k of ['page', 'pageSize', 'totalRows', 'totalPages']) expect(Number.isInteger(meta[k]), k).toBe(true);
  expect(meta.totalPages).toBe(Math.ceil(meta.totalRows / meta.pageSize));
}

/** An RFC 9457 problem with `status`; with `parameter`, its `errors[]` name it. */
export function expectProblem(res: ApiResult, status: number, parameter?: string | RegExp) {
  expect(res.status, res.text.slice(0, 500)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.json).toMatchObject({ status, title: expect.any(String), detail: expect.any(String) });
  if (parameter !== undefined) {
    const names = (res.json.errors ?? []).map((e: { parameter: string }) => e.parameter);
    const hit = names.some((n: string) => (typeof parameter === 'string' ? n === parameter : parameter.test(n)));
    expect(hit, `errors[].parameter ${JSON.stringify(names)} should name ${parameter}`).toBe(true);
  }
  return res.json;
}

// ---- paging ---------------------------------------------------------------------------------------

/** Every page of a paged endpoint, in order, until an empty page or `totalPages`. */
export async function walkPages(path: string, key: string, maxPages = 60) {
  const sep = path.includes('?') ? '&' : '?';
  const rows: any[] = [];
  let meta: any;
  for (let page = 1; page <= maxPages; page++) {
    const res = await get(`${path}${sep}page=${page}`, { key });
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    meta = res.json.meta;
    rows.push(...res.json.data);
    if (page >= meta.totalPages) return { rows, meta, pages: page };
  }
  throw new Error(`${path}: more than ${maxPages} pages`);
}

/** The unique identity of a per-site/country/day row. */
export const rowKey = (r: { gameId: string; createdAt: string; country: string | null }) =>
  `${r.gameId}|${r.createdAt.slice(0, 10)}|${r.country}`;

export const q = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

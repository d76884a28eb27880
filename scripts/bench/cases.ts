import { addDays } from '@/lib/query';
import { type WindowShape, windowParams, windowsOf } from './windows';

/** How a case authenticates: not at all, with the run's API keys (one per connection), or its dashboard session. */
export type Auth = 'none' | 'key' | 'session';

export interface BenchCase {
  name: string;
  /** Path and query string. */
  path: string;
  auth: Auth;
  /** The framework floor is what every ratio divides by; floors always run, whatever --only says. */
  floor?: 'framework' | 'auth';
  /** Sites of the account the case needs (its siteIds subset); a smaller account gets a warning. */
  sites?: number;
  /** Its row in the README's Performance table, where the cases of one row stand side by side (`a / b / c`). */
  row: string;
  /**
   * Sends the ETag of its own first answer back as If-None-Match, as a client revalidating its copy does: every
   * answer must then be 304, which the server gives without running the report.
   */
  revalidate?: boolean;
  /**
   * Its answer comes from the report cache after the first request (lib/reports/result-cache.ts): measured again,
   * sequentially, on a server without it (REPORT_CACHE_MB=0), which computes every answer.
   */
  cached?: boolean;
  /**
   * Each request asks another path, the next of this sequence (`path` is only the warm-ups'): a different window
   * and subset each time, as a BI tool asks, so no answer comes from the report cache.
   */
  pathOf?: () => string;
}

export interface CaseContext {
  today: string;
  /** The account's site ids in creation order (at least the first 90 when it has them). */
  siteIds: string[];
}

/** The cases of one README row, in the order they are shown. */
const row = (label: string, cases: Omit<BenchCase, 'row'>[]): BenchCase[] => cases.map((c) => ({ ...c, row: label }));
/** A row of cases that the report cache answers. */
const cachedRow = (label: string, cases: Omit<BenchCase, 'row'>[]) => row(label, cases.map((c) => ({ ...c, cached: true })));

const q = (path: string, params: Record<string, string | number>) =>
  `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;

/** Any window a BI tool may ask: 10–90 sites, 30–730 days. */
const ANY_WINDOW: WindowShape = { sites: [10, 90], days: [30, 730], seed: 42 };

/** More windows than a case's phases send (a concurrent phase of 10 s answers a few thousand). */
const WINDOWS = 10_000;

/** A case that asks another window of `shape` per request; made when first measured (sampling takes a moment). */
function varied(
  context: CaseContext,
  name: string,
  endpoint: string,
  shape: WindowShape,
  extra: Record<string, string | number> = {},
): Omit<BenchCase, 'row'> {
  let paths: string[] | undefined;
  let next = 0;
  const pathOf = () => {
    paths ??= windowsOf(context.today, context.siteIds, shape, WINDOWS + 1).map((w) =>
      q(endpoint, { ...extra, ...windowParams(w) }),
    );
    return paths[1 + (next++ % WINDOWS)];
  };
  // The warm-ups ask a window of the same shape that the measured requests never ask.
  const warmUp = windowsOf(context.today, context.siteIds, { ...shape, seed: shape.seed + 1 }, 1)[0];
  return { name, path: q(endpoint, { ...extra, ...windowParams(warmUp) }), auth: 'key', sites: shape.sites[1], pathOf };
}

/**
 * Every case of the run, in order, by README row. To add one, add a line: the path is requested as is, with
 * the authentication named. Dates are relative to today so the figures stay comparable from day to day.
 */
export function benchCases(context: CaseContext): BenchCase[] {
  const { today, siteIds } = context;
  const since = (days: number) => addDays(today, -(days - 1));
  const range = (days: number) => ({ fromDate: since(days), toDate: today });
  const first = (n: number) => ({ siteIds: siteIds.slice(0, n).join(',') });
  const top100 = { ...range(365), sortBy: 'revenueAmount', sortDirection: 'desc', pageSize: 100 };
  const totals = '/api/v1/reports/totals';
  const byCountry = '/api/v1/reports/by-country';
  const rows = '/api/v1/reports/countries';
  const byRevenue = { pageSize: 100, sortBy: 'revenueAmount', sortDirection: 'desc' };
  /** The dashboard's filter bar names the range `from`/`to` (lib/dashboard/url.ts). */
  const range365 = { from: since(365), to: today };

  return [
    ...row('health (framework floor)', [
      { name: 'health (framework floor)', path: '/api/v1/health', auth: 'none', floor: 'framework' },
    ]),
    ...row('sites (auth floor)', [{ name: 'sites (auth floor)', path: '/api/v1/sites', auth: 'key', floor: 'auth' }]),

    ...cachedRow('totals, 30 / 365 / 731 days', [
      { name: 'totals 30 d', path: q(totals, range(30)), auth: 'key' },
      { name: 'totals 365 d', path: q(totals, range(365)), auth: 'key' },
      { name: 'totals 731 d', path: q(totals, range(731)), auth: 'key' },
    ]),
    ...cachedRow('totals, 365 days, 1 / 10 / 50 sites', [
      { name: 'totals 365 d, 1 site', path: q(totals, { ...range(365), ...first(1) }), auth: 'key', sites: 1 },
      { name: 'totals 365 d, 10 sites', path: q(totals, { ...range(365), ...first(10) }), auth: 'key', sites: 10 },
      { name: 'totals 365 d, 50 sites', path: q(totals, { ...range(365), ...first(50) }), auth: 'key', sites: 50 },
    ]),

    ...cachedRow('by-country, 365 days, top 100 by revenue', [
      { name: 'by-country 365 d top 100', path: q(byCountry, top100), auth: 'key' },
    ]),
    ...cachedRow('the same with `Filter=cpm>2`', [
      { name: 'by-country 365 d top 100, cpm>2', path: q(byCountry, { ...top100, Filter: 'cpm>2' }), auth: 'key' },
    ]),
    ...cachedRow('by-country, 365 days, 10 / 50 / 90 sites', [
      { name: 'by-country 365 d top 100, 10 sites', path: q(byCountry, { ...top100, ...first(10) }), auth: 'key', sites: 10 },
      { name: 'by-country 365 d top 100, 50 sites', path: q(byCountry, { ...top100, ...first(50) }), auth: 'key', sites: 50 },
      { name: 'by-country 365 d top 100, 90 sites', path: q(byCountry, { ...top100, ...first(90) }), auth: 'key', sites: 90 },
    ]),
    ...cachedRow('by-country, 731 days, 50 sites', [
      { name: 'by-country 731 d top 100, 50 sites', path: q(byCountry, { ...top100, ...range(731), ...first(50) }), auth: 'key', sites: 50 },
    ]),

    // A different subset and window per request (a fixed seed, so runs compare): the first view of any window.
    ...row('by-country, another 50-site subset and 365-day window per request', [
      varied(context, 'by-country, any 50 sites, any 365 d', byCountry, { sites: [50, 50], days: [365, 365], seed: 41 }, byRevenue),
    ]),
    ...row('by-country / totals, 10–90 sites and 30–730 days, another per request', [
      varied(context, 'by-country, any 10–90 sites, any 30–730 d', byCountry, ANY_WINDOW, byRevenue),
      varied(context, 'totals, any 10–90 sites, any 30–730 d', totals, ANY_WINDOW),
    ]),

    ...row('304 to `If-None-Match`: totals 365 d / by-country 50 sites / rows page 10,000', [
      { name: 'totals 365 d, 304', path: q(totals, range(365)), auth: 'key', revalidate: true },
      {
        name: 'by-country 365 d top 100, 50 sites, 304',
        path: q(byCountry, { ...top100, ...first(50) }),
        auth: 'key',
        sites: 50,
        revalidate: true,
      },
      { name: 'countries page 10,000, 304', path: q(rows, { page: 10_000, pageSize: 100 }), auth: 'key', revalidate: true },
    ]),

    ...row('rows, page 1', [{ name: 'countries page 1', path: q(rows, { pageSize: 100 }), auth: 'key' }]),
    ...row('rows, page 10,000 / page 50,000 descending (100 rows each)', [
      { name: 'countries page 10,000', path: q(rows, { page: 10_000, pageSize: 100 }), auth: 'key' },
      { name: 'countries page 50,000 desc', path: q(rows, { page: 50_000, pageSize: 100, sortDirection: 'desc' }), auth: 'key' },
    ]),
    ...row('rows by revenue desc, all', [{ name: 'countries by revenue desc', path: q(rows, byRevenue), auth: 'key' }]),
    // The first page of a year's rows by a metric, either way: equal values (no impressions: cpm and fill rate 0)
    // come in the index's order, so each is within reach of revenue's (db/migrations/0021_metric_sort_tie_breakers.sql).
    ...(['asc', 'desc'] as const).flatMap((direction) =>
      row(`rows, 365 days, by revenue / cpm / fill rate ${direction === 'asc' ? 'ascending' : 'descending'}`, [
        ...(['revenueAmount', 'cpm', 'fillRate'] as const).map((sortBy) => ({
          name: `countries 365 d by ${sortBy === 'revenueAmount' ? 'revenue' : sortBy} ${direction}`,
          path: q(rows, { pageSize: 100, sortBy, sortDirection: direction, Filter: `createdAt>=${since(365)}` }),
          auth: 'key' as const,
        })),
      ]),
    ),
    ...row('rows, `Search=united`', [
      { name: 'countries Search=united', path: q(rows, { pageSize: 100, Search: 'united' }), auth: 'key' },
    ]),
    ...row('rows, 30 days and `country==US`', [
      { name: 'countries 30 d, country==US', path: q(rows, { pageSize: 100, Filter: `createdAt>=${since(30)};country==US` }), auth: 'key' },
    ]),

    ...row('payments: balance / statements (API) / Payments page (document)', [
      { name: 'payments balance', path: '/api/v1/payments/balance', auth: 'key' },
      { name: 'payments statements', path: q('/api/v1/payments/statements', { pageSize: 100 }), auth: 'key' },
      { name: 'dashboard /payments', path: '/payments', auth: 'session' },
    ]),

    // The dashboard's server-rendered documents: the account's default range, then a year through the filter bar.
    ...cachedRow('dashboard, default range: overview / countries / sites (document)', [
      { name: 'dashboard / (overview)', path: '/', auth: 'session' },
      { name: 'dashboard /countries', path: '/countries', auth: 'session' },
      { name: 'dashboard /sites', path: '/sites', auth: 'session' },
    ]),
    ...cachedRow('dashboard, 365 days: overview / countries / sites (document)', [
      { name: 'dashboard / (overview) 365 d', path: q('/', range365), auth: 'session' },
      { name: 'dashboard /countries 365 d', path: q('/countries', range365), auth: 'session' },
      { name: 'dashboard /sites 365 d', path: q('/sites', range365), auth: 'session' },
    ]),
  ];
}

/** The floors, then the other cases whose name matches `only` (all of them without it). */
export function selectCases(cases: BenchCase[], only: RegExp | undefined): BenchCase[] {
  return cases.filter((c) => c.floor || !only || only.test(c.name));
}

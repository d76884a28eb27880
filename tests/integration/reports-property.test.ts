/**
 * Exact by construction (issue: reports at scale): whatever rollup grain or count strategy answers a report,
 * the answer equals the aggregate of revenue_daily. fast-check draws ranges, site sets, filters, searches
 * and sorts; each answer is compared with plain SQL over the daily rows.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { COUNTRIES } from '@/lib/shared/countries';
import { get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { DEMO_IDS } from '@/db/seed-data';
import { demoKey, issueKey } from '../support/keys';
import { DEMO_SITE_IDS, micros, q, shiftDay, sqlRows, sqlSums, sqlSumsByCountry, uuidArray } from './reports-helpers';

const t = useTestDatabase();
let key: string;
beforeAll(async () => {
  key = (await demoKey()).raw;
});

const RUNS = { numRuns: 25 };
/** A range of 1..731 days ending within the data's last 400 days (and so partly before it, sometimes). */
const range = () =>
  fc
    .record({ end: fc.integer({ min: 0, max: 400 }), length: fc.integer({ min: 1, max: 731 }) })
    .map(({ end, length }) => {
      const to = shiftDay(t.today, -end);
      return { from: shiftDay(to, -(length - 1)), to };
    });
/** No siteIds (all), or a non-empty subset of the demo publisher's sites. */
const siteSet = fc.option(fc.subarray([...DEMO_SITE_IDS], { minLength: 1 }), { nil: null });

describe('aggregated reports equal sums of revenue_daily', () => {
  it('totals, for any range and site set', async () => {
    await fc.assert(
      fc.asyncProperty(range(), siteSet, async ({ from, to }, sites) => {
        const res = await get(
          `/api/v1/reports/totals?${q({ fromDate: from, toDate: to, ...(sites ? { siteIds: sites.join(',') } : {}) })}`,
          { key },
        );
        expect(res.status, res.text).toBe(200);
        const sums = await sqlSums(t.db, sites ?? DEMO_SITE_IDS, from, to);
        expect([res.json.totalImpressions, res.json.totalRequests, micros(res.json.totalRevenue)]).toEqual([
          sums.impressions,
          sums.adRequests,
          sums.revenueMicros,
        ]);
      }),
      RUNS,
    );
  });

  it('by-country, for any range, site set, metric filter and sort', async () => {
    const sorts = fc.constantFrom('country', 'revenueAmount', 'cpm', 'impressions', 'fillRate', 'adRequests');
    await fc.assert(
      fc.asyncProperty(
        range(),
        siteSet,
        sorts,
        fc.boolean(),
        fc.integer({ min: 0, max: 3_000_000 }),
        async ({ from, to }, sites, sortBy, desc, minImpressions) => {
          const params = {
            fromDate: from,
            toDate: to,
            pageSize: 1000,
            sortBy,
            sortDirection: desc ? 'desc' : 'asc',
            Filter: `impressions>=${minImpressions}`,
            ...(sites ? { siteIds: sites.join(',') } : {}),
          };
          const res = await get(`/api/v1/reports/by-country?${q(params)}`, { key });
          expect(res.status, res.text).toBe(200);
          const want = [...(await sqlSumsByCountry(t.db, sites ?? DEMO_SITE_IDS, from, to))].filter(
            ([, s]) => s.impressions >= minImpressions,
          );
          const got = new Map(
            res.json.data.map(
              (r: { country: string; impressions: number; adRequests: number; revenueAmount: number }) => [
                r.country,
                [r.impressions, r.adRequests, micros(r.revenueAmount)],
              ],
            ),
          );
          expect(got).toEqual(new Map(want.map(([c, s]) => [c, [s.impressions, s.adRequests, s.revenueMicros]])));
          expect(res.json.meta.totalRows).toBe(want.length);
        },
      ),
      { numRuns: 35 },
    );
  });
});

describe('the rows count exactly what they page', () => {
  const codes = COUNTRIES.map((c) => c.code);
  /** Filters on the rollup's dimensions (day, country, site) and beyond, alone and combined. */
  const filter = fc.oneof(
    range().map(({ from, to }) => `createdAt>=${from};createdAt<=${to}`),
    fc.subarray(codes, { minLength: 1, maxLength: 4 }).map((cs) => cs.map((c) => `country==${c}`).join(',')),
    fc.constantFrom(...codes).map((c) => `country!=${c}`),
    fc
      .subarray([...DEMO_SITE_IDS], { minLength: 1, maxLength: 3 })
      .map((ids) => ids.map((id) => `gameId==${id}`).join(',')),
    fc.tuple(range(), fc.constantFrom(...codes)).map(([{ from }, c]) => `createdAt>=${from};country==${c}`),
    fc.tuple(range(), fc.constantFrom(...DEMO_SITE_IDS)).map(([{ from }, id]) => `createdAt>=${from};gameId==${id}`),
    fc
      .tuple(fc.constantFrom(...DEMO_SITE_IDS), fc.constantFrom(...codes))
      .map(([id, c]) => `gameId==${id};country==${c}`),
    fc.integer({ min: 0, max: 20_000 }).map((n) => `impressions>${n}`),
  );
  /** Filters the rollup can count and locate pages by. */
  const dimensionFilter = fc.oneof(
    range().map(({ from, to }) => `createdAt>=${from};createdAt<=${to}`),
    fc.subarray(codes, { minLength: 1, maxLength: 4 }).map((cs) => cs.map((c) => `country==${c}`).join(',')),
    fc
      .subarray([...DEMO_SITE_IDS], { minLength: 1, maxLength: 3 })
      .map((ids) => ids.map((id) => `gameId==${id}`).join(',')),
    fc.tuple(range(), fc.constantFrom(...codes)).map(([{ from }, c]) => `createdAt<${from};country==${c}`),
  );
  const search = fc.option(fc.constantFrom('united', 'de', 'sky', 'merge', 'an', 'zz-none'), { nil: null });

  it('totalRows equals a count of the matching daily rows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(filter, { nil: null }), search, async (Filter, Search) => {
        const params = { pageSize: 5, ...(Filter ? { Filter } : {}), ...(Search ? { Search } : {}) };
        const res = await get(`/api/v1/reports/countries?${q(params)}`, { key });
        expect(res.status, res.text).toBe(200);
        // The same rows with the daily rows' own count (the path the rollup replaces), through the API's
        // Filter on a metric that holds for every row: it forces the exact count.
        const exact = await get(
          `/api/v1/reports/countries?${q({ ...params, Filter: [Filter, 'impressions>=0'].filter(Boolean).join(';') })}`,
          { key },
        );
        expect(res.json.meta.totalRows, `${Filter} / ${Search}`).toBe(exact.json.meta.totalRows);
        expect(res.json.data).toEqual(exact.json.data);
      }),
      RUNS,
    );
    // And the exact count itself is a plain count of the account's rows.
    const [{ n }] = await sqlRows<{ n: string }>(
      t.db,
      sql`select count(*)::text as n from revenue_daily where site_id = any(${uuidArray(DEMO_SITE_IDS)})`,
    );
    const all = await get('/api/v1/reports/countries?pageSize=1', { key });
    expect(all.json.meta.totalRows).toBe(Number(n));
  });

  it('a deep page in the default order (found from the rollup) equals the same page walked by OFFSET', async () => {
    // Three calls a run: a key of its own keeps the walk inside the per-key budget.
    const { raw: own } = await issueKey(DEMO_IDS.users.demo, { label: 'deep pages' });
    const where = fc.record({
      permille: fc.integer({ min: 1, max: 1050 }),
      pageSize: fc.integer({ min: 1, max: 1000 }),
      desc: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.option(dimensionFilter, { nil: null }),
        search,
        where,
        async (Filter, Search, { permille, pageSize, desc }) => {
          const base = { pageSize, sortDirection: desc ? 'desc' : 'asc', ...(Search ? { Search } : {}) };
          const first = await get(`/api/v1/reports/countries?${q({ ...base, ...(Filter ? { Filter } : {}) })}`, {
            key: own,
          });
          expect(first.status, first.text).toBe(200);
          const page = Math.max(1, Math.ceil((first.json.meta.totalRows * permille) / 1000 / pageSize));
          const params = { ...base, page, ...(Filter ? { Filter } : {}) };
          const res = await get(`/api/v1/reports/countries?${q(params)}`, { key: own });
          // impressions>=0 holds for every row but forces the exact count and a plain OFFSET.
          const walked = await get(
            `/api/v1/reports/countries?${q({ ...params, Filter: [Filter, 'impressions>=0'].filter(Boolean).join(';') })}`,
            { key: own },
          );
          expect(res.status, res.text).toBe(200);
          expect(res.json.data, `${Filter} / ${Search} page ${page}`).toEqual(walked.json.data);
          expect(res.json.meta).toEqual(walked.json.meta);
        },
      ),
      { numRuns: 35 },
    );
  });
});

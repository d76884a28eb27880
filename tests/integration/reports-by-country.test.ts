import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { COUNTRIES } from '@/lib/shared/countries';
import { get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { demoKey, issueKey } from '../support/keys';
import {
  BY_COUNTRY_SHAPE,
  DEMO_SITE_IDS,
  expectPaged,
  expectProblem,
  expectRatio,
  micros,
  nowDay,
  q,
  shiftDay,
  sqlSumsByCountry,
  type Sums,
  walkPages,
} from './reports-helpers';

const t = useTestDatabase();
const BY_COUNTRY = '/api/v1/reports/by-country';
let demo: string;
let from: string;
let range: string;

beforeAll(async () => {
  demo = (await demoKey()).raw;
  from = shiftDay(t.today, -44);
  range = `fromDate=${from}&toDate=${t.today}`;
});

function expectByCountryRow(row: any, sums: Sums | undefined) {
  expect(sums, `country ${row.country} should have rows`).toBeDefined();
  expect(row.impressions).toBe(sums!.impressions);
  expect(row.adRequests).toBe(sums!.adRequests);
  expect(micros(row.revenueAmount)).toBe(sums!.revenueMicros);
  expectRatio(row.cpm, sums!.revenueMicros / 1e6, sums!.impressions, 1000);
  expectRatio(row.fillRate, sums!.impressions, sums!.adRequests);
}

describe('GET /api/v1/reports/by-country: envelope and paging', () => {
  it('defaults to page 1 of 20 rows, no sortBy, asc, and aggregates each country exactly', async () => {
    const res = await get(BY_COUNTRY, { key: demo });
    expectPaged(res, BY_COUNTRY_SHAPE);
    const today = nowDay();
    const expected = await sqlSumsByCountry(t.db, DEMO_SITE_IDS, shiftDay(today, -29), today);
    expect(res.json.meta).toEqual({
      page: 1,
      pageSize: 20,
      sortBy: null,
      sortDirection: 'asc',
      totalRows: expected.size,
      totalPages: Math.ceil(expected.size / 20),
    });
    expect(res.json.data).toHaveLength(20);
    for (const row of res.json.data) expectByCountryRow(row, expected.get(row.country));
  });

  it('answers a page past the end with 200, no rows and the right totals', async () => {
    const res = await get(`${BY_COUNTRY}?${range}&page=99&pageSize=10`, { key: demo });
    expectPaged(res, BY_COUNTRY_SHAPE);
    const n = (await sqlSumsByCountry(t.db, DEMO_SITE_IDS, from, t.today)).size;
    expect(res.json).toEqual({
      data: [],
      meta: { page: 99, pageSize: 10, sortBy: null, sortDirection: 'asc', totalRows: n, totalPages: Math.ceil(n / 10) },
    });
  });

  it('allows pageSize 1000 and rejects 1001, 0 and non-integers', async () => {
    const big = await get(`${BY_COUNTRY}?${range}&pageSize=1000`, { key: demo });
    expectPaged(big, BY_COUNTRY_SHAPE);
    expect(big.json.data.length).toBe(big.json.meta.totalRows);
    expect(big.json.meta).toMatchObject({ pageSize: 1000, totalPages: 1 });
    for (const v of ['1001', '0', '-1', '1.5', '1e3', 'ten', '']) {
      expectProblem(await get(`${BY_COUNTRY}?pageSize=${v}`, { key: demo }), 400, 'pageSize');
    }
  });

  it('echoes sortBy in canonical spelling and sortDirection in lower case', async () => {
    const res = await get(`${BY_COUNTRY}?${range}&sortby=REVENUEAMOUNT&SortDirection=DESC&pageSize=5`, { key: demo });
    expectPaged(res, BY_COUNTRY_SHAPE);
    expect(res.json.meta).toMatchObject({ sortBy: 'revenueAmount', sortDirection: 'desc', page: 1, pageSize: 5 });
    const all = [...(await sqlSumsByCountry(t.db, DEMO_SITE_IDS, from, t.today)).entries()].sort(
      (a, b) => b[1].revenueMicros - a[1].revenueMicros,
    );
    expect(res.json.data.map((r: any) => r.country)).toEqual(all.slice(0, 5).map(([c]) => c));
    expectProblem(await get(`${BY_COUNTRY}?sortBy=gameName`, { key: demo }), 400, 'sortBy');
    expectProblem(await get(`${BY_COUNTRY}?sortDirection=down`, { key: demo }), 400, 'sortDirection');
  });

  it('accepts every parameter name in any letter case', async () => {
    const site = DEMO_IDS.sites.skyHopper;
    const canonical = await get(
      `${BY_COUNTRY}?page=2&pageSize=4&sortBy=impressions&sortDirection=desc&siteIds=${site}&${range}&Filter=impressions>0&Search=a`,
      { key: demo },
    );
    const shouted = await get(
      `${BY_COUNTRY}?PAGE=2&PageSize=4&SORTBY=impressions&SortDirection=DESC&SITEIDS=${site}` +
        `&FromDate=${from}&TODATE=${t.today}&filter=impressions>0&SEARCH=a`,
      { key: demo },
    );
    expectPaged(canonical, BY_COUNTRY_SHAPE);
    expect(canonical.json.data).toHaveLength(4);
    expect(shouted.json).toEqual(canonical.json);
  });
});

describe('GET /api/v1/reports/by-country: sorting before paging', () => {
  it('walks pages sorted by a metric into one ordered list with no duplicates or gaps', async () => {
    for (const [sortBy, dir] of [
      ['impressions', 'asc'],
      ['fillRate', 'desc'],
      ['country', 'desc'],
    ] as const) {
      const path = `${BY_COUNTRY}?${range}&sortBy=${sortBy}&sortDirection=${dir}&pageSize=7`;
      const { rows, meta } = await walkPages(path, demo);
      const one = await get(`${BY_COUNTRY}?${range}&sortBy=${sortBy}&sortDirection=${dir}&pageSize=1000`, {
        key: demo,
      });
      expect(rows).toEqual(one.json.data);
      expect(rows.length).toBe(meta.totalRows);
      expect(new Set(rows.map((r: any) => r.country)).size).toBe(rows.length);
      const values = rows.map((r: any) => r[sortBy]);
      const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(values).toEqual(dir === 'asc' ? sorted : sorted.reverse());
    }
  });

  it('pages through ties deterministically (an account with many equal metrics)', async () => {
    const user = await createPublisher(t.db);
    const site = await createSite(t.db, user.id);
    const day = shiftDay(t.today, -3);
    const codes = COUNTRIES.slice(0, 40).map((c) => c.code);
    await createRevenue(
      t.db,
      site.id,
      codes.map((country, i) => ({
        day,
        country,
        adRequests: 1000,
        impressions: 100 * (i % 3),
        revenueMicros: 250_000 * (i % 4),
        clicks: 1,
      })),
    );
    for (const sortBy of ['impressions', 'adRequests', 'revenueAmount', 'cpm']) {
      // About 30 calls per field: a key each keeps every walk well inside the 120/min budget.
      const { raw } = await issueKey(user.id, { label: `ties ${sortBy}` });
      for (const dir of ['asc', 'desc']) {
        const base = `${BY_COUNTRY}?fromDate=${day}&toDate=${day}&sortBy=${sortBy}&sortDirection=${dir}`;
        const { rows, pages } = await walkPages(`${base}&pageSize=3`, raw);
        expect(pages).toBe(14);
        expect(rows.map((r: any) => r.country).sort()).toEqual([...codes].sort());
        const values = rows.map((r: any) => r[sortBy]);
        for (let i = 1; i < values.length; i++) {
          expect(
            dir === 'asc' ? values[i - 1] <= values[i] : values[i - 1] >= values[i],
            `${sortBy} ${dir} at ${i}`,
          ).toBe(true);
        }
        expect(rows).toEqual((await get(`${base}&pageSize=1000`, { key: raw })).json.data);
      }
    }
  });
});

describe("GET /api/v1/reports/by-country and totals: most of an account's sites", () => {
  // More than half of the sites are read as the account minus the others: what is subtracted must vanish.
  it('answers exactly, without the countries only the other sites have, across partial and whole months', async () => {
    const user = await createPublisher(t.db);
    const [a, b, c] = [
      await createSite(t.db, user.id),
      await createSite(t.db, user.id),
      await createSite(t.db, user.id),
    ];
    const days = [shiftDay(t.today, -70), shiftDay(t.today, -40), shiftDay(t.today, -2)];
    for (const [site, factor] of [
      [a, 1],
      [b, 3],
    ] as const) {
      await createRevenue(
        t.db,
        site.id,
        days.flatMap((day) => [
          { day, country: 'DE', impressions: 100 * factor, adRequests: 300, revenueMicros: 7_000 * factor, clicks: 1 },
          { day, country: 'FR', impressions: 0, adRequests: 0, revenueMicros: 0 },
        ]),
      );
    }
    // Only the site left out has JP, and DE rows that must not count.
    await createRevenue(
      t.db,
      c.id,
      days.flatMap((day) => [
        { day, country: 'JP', impressions: 50, adRequests: 60, revenueMicros: 900 },
        { day, country: 'DE', impressions: 11, adRequests: 13, revenueMicros: 17 },
      ]),
    );
    const { raw } = await issueKey(user.id, { label: 'most sites' });
    const scope = q({ siteIds: `${a.id},${b.id}`, fromDate: shiftDay(t.today, -75), toDate: t.today });
    const res = await get(`${BY_COUNTRY}?${scope}&sortBy=country`, { key: raw });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.map((r: any) => [r.country, r.impressions, r.adRequests, micros(r.revenueAmount)])).toEqual([
      ['DE', 1_200, 1_800, 84_000],
      ['FR', 0, 0, 0],
    ]);
    expect(res.json.meta.totalRows).toBe(2);
    const totals = await get(`/api/v1/reports/totals?${scope}`, { key: raw });
    expect(totals.status, totals.text).toBe(200);
    expect([totals.json.totalImpressions, totals.json.totalRequests, micros(totals.json.totalRevenue)]).toEqual([
      1_200, 1_800, 84_000,
    ]);
  });
});

describe('GET /api/v1/reports/by-country: Search, Filter, FilterList', () => {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });

  it('searches country codes and English names, case-insensitively, with % and _ taken literally', async () => {
    const present = [...(await sqlSumsByCountry(t.db, DEMO_SITE_IDS, from, t.today)).keys()];
    for (const needle of ['de', 'KINGDOM', 'United', 'uS', 'zeal', 'united states', ' Czech ']) {
      const n = needle.trim().toLowerCase();
      const expected = present
        .filter((c) => c.toLowerCase().includes(n) || names.of(c)!.toLowerCase().includes(n))
        .sort();
      expect(expected.length).toBeGreaterThan(0);
      const res = await get(`${BY_COUNTRY}?${range}&${q({ Search: needle })}&pageSize=1000`, { key: demo });
      expectPaged(res, BY_COUNTRY_SHAPE);
      expect(res.json.data.map((r: any) => r.country).sort(), needle).toEqual(expected);
    }
    for (const needle of ['%', '_', '_S', 'U%', "'", '"']) {
      const res = await get(`${BY_COUNTRY}?${range}&${q({ Search: needle })}`, { key: demo });
      expect(res.status).toBe(200);
      expect(res.json.meta.totalRows, needle).toBe(0);
    }
  });

  it('filters metric terms after aggregation (HAVING), with exact boundaries', async () => {
    const sums = await sqlSumsByCountry(t.db, DEMO_SITE_IDS, from, t.today);
    const check = async (filter: string, keep: (s: Sums, c: string) => boolean) => {
      const expected = [...sums]
        .filter(([c, s]) => keep(s, c))
        .map(([c]) => c)
        .sort();
      const res = await get(`${BY_COUNTRY}?${range}&${q({ Filter: filter })}&pageSize=1000`, { key: demo });
      expectPaged(res, BY_COUNTRY_SHAPE);
      expect(res.json.data.map((r: any) => r.country).sort(), filter).toEqual(expected);
      for (const row of res.json.data) expectByCountryRow(row, sums.get(row.country));
      return expected;
    };
    // Far above any single day row, so a filter before aggregation would find nothing.
    const kept = await check('revenueAmount>1000', (s) => s.revenueMicros > 1e9);
    expect(kept.length).toBeGreaterThan(3);
    expect(kept.length).toBeLessThan(sums.size);
    const pivot = [...sums.values()].map((s) => s.impressions).sort((a, b) => a - b)[20];
    await check(`impressions>=${pivot}`, (s) => s.impressions >= pivot);
    await check(`impressions>${pivot}`, (s) => s.impressions > pivot);
    await check(`impressions==${pivot}`, (s) => s.impressions === pivot);
    await check(`impressions!=${pivot}`, (s) => s.impressions !== pivot);
    await check(`adRequests<=${pivot}`, (s) => s.adRequests <= pivot);
    await check(
      'cpm>5;fillRate<0.9',
      (s) => s.revenueMicros / s.impressions / 1000 > 5 && s.impressions / s.adRequests < 0.9,
    );
    await check('country==us,country==DE;revenueAmount>1', (s, c) => c === 'US' || c === 'DE');
    await check('country=@e;country!@s', (s, c) => c.includes('E') && !c.includes('S'));
    await check('country>=SE;country<TH', (s, c) => c >= 'SE' && c < 'TH');
    await check('revenueAmount<100,revenueAmount>10000', (s) => s.revenueMicros < 1e8 || s.revenueMicros > 1e10);
  });

  it('FilterList[country] and FilterList.country select any of the values; entries AND with Filter', async () => {
    for (const list of ['FilterList[country]=US,DE', 'FilterList.country=us,%20de', 'filterlist[COUNTRY]=US,DE,']) {
      const res = await get(`${BY_COUNTRY}?${range}&${list}`, { key: demo });
      expectPaged(res, BY_COUNTRY_SHAPE);
      expect(res.json.data.map((r: any) => r.country).sort(), list).toEqual(['DE', 'US']);
    }
    const both = await get(`${BY_COUNTRY}?${range}&FilterList[country]=US,DE&Filter=country!=US`, { key: demo });
    expect(both.json.data.map((r: any) => r.country)).toEqual(['DE']);
    expectProblem(await get(`${BY_COUNTRY}?FilterList[gameId]=x`, { key: demo }), 400, /^FilterList/);
    expectProblem(await get(`${BY_COUNTRY}?FilterList[impressions]=many`, { key: demo }), 400, /^FilterList/);
    expectProblem(await get(`${BY_COUNTRY}?FilterList=US`, { key: demo }), 400, 'FilterList');
  });

  it('rejects a malformed Filter or an unknown field with 400 naming Filter and the position', async () => {
    for (const filter of [
      'country=US',
      'country==',
      'revenueAmount>lots',
      'country==US;',
      'createdAt>=2026-01-01',
      'gameId==x',
      '(country==US)',
    ]) {
      const body = expectProblem(await get(`${BY_COUNTRY}?${q({ Filter: filter })}`, { key: demo }), 400, 'Filter');
      expect(body.detail, filter).toMatch(/position \d+/);
    }
  });
});

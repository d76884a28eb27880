import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { demoKey, issueKey, rivalKey } from '../support/keys';
import {
  DEMO_SITE_IDS,
  expectProblem,
  expectRatio,
  expectShape,
  micros,
  nowDay,
  q,
  RIVAL_SITE_IDS,
  shiftDay,
  sqlSums,
  type Sums,
  TOTALS_SHAPE,
} from './reports-helpers';

const t = useTestDatabase();
const TOTALS = '/api/v1/reports/totals';
let demo: string;

beforeAll(async () => {
  demo = (await demoKey()).raw;
});

/** The totals response equals the SQL sums exactly; ratios are ratios of those sums. */
function expectTotals(body: any, sums: Sums) {
  expectShape(body, TOTALS_SHAPE, 'totals');
  expect(body.totalImpressions).toBe(sums.impressions);
  expect(body.totalRequests).toBe(sums.adRequests);
  expect(micros(body.totalRevenue)).toBe(sums.revenueMicros);
  expectRatio(body.averageCpm, sums.revenueMicros / 1e6, sums.impressions, 1000);
  expectRatio(body.fillRate, sums.impressions, sums.adRequests);
}

describe('GET /api/v1/reports/totals', () => {
  it('defaults to the last 30 days ending today (UTC, inclusive) over all sites of the account', async () => {
    const today = nowDay();
    const res = await get(TOTALS, { key: demo });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const sums = await sqlSums(t.db, DEMO_SITE_IDS, shiftDay(today, -29), today);
    expect(sums.impressions).toBeGreaterThan(0);
    expectTotals(res.json, sums);
    // One day more or less would give different numbers: the window is exactly 30 days.
    const wider = await sqlSums(t.db, DEMO_SITE_IDS, shiftDay(today, -30), today);
    expect(wider.impressions).not.toBe(sums.impressions);
  });

  it('honours a lone fromDate (runs to today) and a lone toDate (30 days ending there)', async () => {
    const today = nowDay();
    const from = shiftDay(t.today, -9);
    expectTotals(
      (await get(`${TOTALS}?fromDate=${from}`, { key: demo })).json,
      await sqlSums(t.db, DEMO_SITE_IDS, from, today),
    );
    const to = shiftDay(t.today, -100);
    expectTotals(
      (await get(`${TOTALS}?toDate=${to}`, { key: demo })).json,
      await sqlSums(t.db, DEMO_SITE_IDS, shiftDay(to, -29), to),
    );
  });

  it('sums explicit ranges: a single day, a month boundary, a whole year', async () => {
    const monthStart = `${t.today.slice(0, 7)}-01`;
    const ranges: [string, string][] = [
      [t.today, t.today],
      [shiftDay(monthStart, -3), shiftDay(monthStart, 2)],
      [shiftDay(t.today, -364), t.today],
      [shiftDay(t.today, -500), shiftDay(t.today, -400)], // partly before the data starts
    ];
    for (const [from, to] of ranges) {
      const res = await get(`${TOTALS}?${q({ fromDate: from, toDate: to })}`, { key: demo });
      expect(res.status, res.text).toBe(200);
      expectTotals(res.json, await sqlSums(t.db, DEMO_SITE_IDS, from, to));
    }
  });

  it('narrows to siteIds: one site, two sites (spaces, upper case, repeats), empty list = all', async () => {
    const from = shiftDay(t.today, -13);
    const range = { fromDate: from, toDate: t.today };
    const one = DEMO_IDS.sites.mergeKingdom;
    const two = [DEMO_IDS.sites.skyHopper, DEMO_IDS.sites.dungeonDash];
    const cases: [string, string[]][] = [
      [one, [one]],
      [` ${two[0]} , ${two[1].toUpperCase()} ,${two[0]}`, two],
      ['', DEMO_SITE_IDS],
    ];
    for (const [siteIds, ids] of cases) {
      const res = await get(`${TOTALS}?${q({ ...range, siteIds })}`, { key: demo });
      expect(res.status, res.text).toBe(200);
      expectTotals(res.json, await sqlSums(t.db, ids, from, t.today));
    }
  });

  it('gives zeros, not errors, for a range without data', async () => {
    const res = await get(`${TOTALS}?fromDate=2001-01-01&toDate=2001-12-31`, { key: demo });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ totalImpressions: 0, totalRequests: 0, averageCpm: 0, totalRevenue: 0, fillRate: 0 });
  });

  it('matches parameter names in any letter case', async () => {
    const from = shiftDay(t.today, -6);
    const site = DEMO_IDS.sites.driftRacers;
    const expected = await sqlSums(t.db, [site], from, t.today);
    for (const query of [
      `FromDate=${from}&TODATE=${t.today}&SITEIDS=${site}`,
      `fromdate=${from}&toDate=${t.today}&SiteIds=${site}`,
    ]) {
      const res = await get(`${TOTALS}?${query}`, { key: demo });
      expect(res.status, res.text).toBe(200);
      expectTotals(res.json, expected);
    }
  });

  it('rejects bad dates, reversed and over-long ranges, and malformed site ids with 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['fromDate=2026-02-30', 'fromDate'],
      ['toDate=2026-1-1', 'toDate'],
      ['fromDate=2026-13-01&toDate=2026-12-01', 'fromDate'],
      ['fromDate=yesterday', 'fromDate'],
      ['fromDate=2026-03-02&toDate=2026-03-01', 'fromDate'],
      ['fromDate=2024-01-01&toDate=2026-01-01', 'fromDate'], // 732 days
      ['siteIds=not-a-uuid', 'siteIds'],
      [`siteIds=${DEMO_IDS.sites.skyHopper},1234`, 'siteIds'],
      ['FROMDATE=2026-02-29', 'fromDate'],
    ];
    for (const [query, parameter] of cases) {
      expectProblem(await get(`${TOTALS}?${query}`, { key: demo }), 400, parameter);
    }
    // 731 days inclusive is the limit, and fine.
    expect((await get(`${TOTALS}?fromDate=2024-01-01&toDate=2025-12-31`, { key: demo })).status).toBe(200);
  });

  it('rejects unknown and paging parameters, and contradicting repeats; tolerates identical repeats', async () => {
    expectProblem(await get(`${TOTALS}?frmDate=2026-01-01`, { key: demo }), 400, 'frmDate');
    expectProblem(await get(`${TOTALS}?page=1`, { key: demo }), 400, 'page');
    expectProblem(await get(`${TOTALS}?Filter=country==US`, { key: demo }), 400, 'Filter');
    expectProblem(await get(`${TOTALS}?FilterList[country]=US`, { key: demo }), 400, 'FilterList');
    const day = shiftDay(t.today, -3);
    expectProblem(await get(`${TOTALS}?fromDate=${day}&FROMDATE=${shiftDay(day, -1)}`, { key: demo }), 400, 'fromDate');
    const same = await get(`${TOTALS}?fromDate=${day}&FromDate=${day}`, { key: demo });
    expect(same.status).toBe(200);
    expectTotals(same.json, await sqlSums(t.db, DEMO_SITE_IDS, day, nowDay()));
  });

  it("forbids another account's site and a nonexistent site alike (403)", async () => {
    const foreign = await get(`${TOTALS}?siteIds=${RIVAL_SITE_IDS[0]}`, { key: demo });
    const missing = await get(`${TOTALS}?siteIds=0badc0de-0000-4000-8000-000000000000`, { key: demo });
    const a = expectProblem(foreign, 403);
    const b = expectProblem(missing, 403);
    expect(a.detail.replace(RIVAL_SITE_IDS[0], 'X')).toBe(
      b.detail.replace('0badc0de-0000-4000-8000-000000000000', 'X'),
    );
    expect([a.type, a.title]).toEqual([b.type, b.title]);
    // Mixed with an own site it is still a 403, not a partial answer.
    expectProblem(await get(`${TOTALS}?siteIds=${DEMO_SITE_IDS[0]},${RIVAL_SITE_IDS[0]}`, { key: demo }), 403);
  });

  it("keeps accounts apart: the rival totals are the rival sites' sums", async () => {
    const { raw } = await rivalKey();
    const from = shiftDay(t.today, -20);
    expectTotals(
      (await get(`${TOTALS}?fromDate=${from}&toDate=${t.today}`, { key: raw })).json,
      await sqlSums(t.db, RIVAL_SITE_IDS, from, t.today),
    );
    expectProblem(await get(`${TOTALS}?siteIds=${DEMO_SITE_IDS[0]}`, { key: raw }), 403);
  });

  it('scopes a site-scoped key: its sites by default, 403 outside them', async () => {
    const allowed = [DEMO_IDS.sites.wordGarden, DEMO_IDS.sites.mergeKingdom];
    const { raw } = await issueKey(DEMO_IDS.users.demo, { siteIds: allowed, label: 'totals scope' });
    const from = shiftDay(t.today, -29);
    const range = `fromDate=${from}&toDate=${t.today}`;
    expectTotals((await get(`${TOTALS}?${range}`, { key: raw })).json, await sqlSums(t.db, allowed, from, t.today));
    expectTotals(
      (await get(`${TOTALS}?${range}&siteIds=${allowed[1]}`, { key: raw })).json,
      await sqlSums(t.db, [allowed[1]], from, t.today),
    );
    expectProblem(await get(`${TOTALS}?siteIds=${DEMO_IDS.sites.skyHopper}`, { key: raw }), 403);
    expectProblem(await get(`${TOTALS}?siteIds=${allowed[0]},${DEMO_IDS.sites.skyHopper}`, { key: raw }), 403);
    expectProblem(await get(`${TOTALS}?siteIds=${RIVAL_SITE_IDS[0]}`, { key: raw }), 403);
  });

  it('offers the JSON media types and nothing else', async () => {
    const base = await get(`${TOTALS}?fromDate=${t.today}&toDate=${t.today}`, { key: demo });
    for (const type of ['application/json', 'text/json', 'text/plain']) {
      const res = await get(`${TOTALS}?fromDate=${t.today}&toDate=${t.today}`, {
        key: demo,
        headers: { accept: type },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')?.split(';')[0]).toBe(type);
      expect(JSON.parse(res.text)).toEqual(base.json);
    }
    expectProblem(await get(TOTALS, { key: demo, headers: { accept: 'text/csv' } }), 406);
    expectProblem(await get(TOTALS, { key: demo, headers: { accept: 'application/xml' } }), 406);
  });
});

import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { get } from '../support/api';
import type { Principal } from '@/lib/access';
import { byCountryQuery } from '@/lib/reports/field-sql';
import { getRevenueByCountry, getTotals } from '@/lib/reports/reports';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { adminKey, demoKey, issueKey, rivalKey } from '../support/keys';
import {
  BY_COUNTRY_SHAPE,
  DEMO_SITE_IDS,
  expectPaged,
  expectProblem,
  NONEXISTENT_SITE,
  nowDay,
  q,
  RIVAL_SITE_IDS,
  shiftDay,
  sqlRows,
  sqlSums,
  sqlSumsByCountry,
  uuidArray,
  walkPages,
} from './reports-helpers';

const t = useTestDatabase();
const REPORTS = ['/api/v1/reports/totals', '/api/v1/reports/by-country'];
const ALLOWED = [DEMO_IDS.sites.skyHopper, DEMO_IDS.sites.dungeonDash];
let scoped: string;
let demo: string;

beforeAll(async () => {
  scoped = (await issueKey(DEMO_IDS.users.demo, { siteIds: ALLOWED, label: 'scope' })).raw;
  demo = (await demoKey()).raw;
});

/** A problem body without what legitimately differs between two requests. */
const comparable = (body: any, id: string) => ({
  ...body,
  requestId: undefined,
  detail: body.detail.replaceAll(id, '<id>'),
});

describe('site-scoped keys', () => {
  it('see only their sites on totals and by-country by default', async () => {
    const from = shiftDay(t.today, -29);
    const range = `fromDate=${from}&toDate=${t.today}`;
    const totals = await get(`/api/v1/reports/totals?${range}`, { key: scoped });
    const sums = await sqlSums(t.db, ALLOWED, from, t.today);
    expect([totals.json.totalImpressions, totals.json.totalRequests]).toEqual([sums.impressions, sums.adRequests]);

    const byCountry = await get(`/api/v1/reports/by-country?${range}&pageSize=1000`, { key: scoped });
    expectPaged(byCountry, BY_COUNTRY_SHAPE);
    const perCountry = await sqlSumsByCountry(t.db, ALLOWED, from, t.today);
    for (const row of byCountry.json.data) expect(row.impressions).toBe(perCountry.get(row.country)!.impressions);
    expect(byCountry.json.meta.totalRows).toBe(perCountry.size);
  });

  it('may name one of their sites', async () => {
    for (const path of REPORTS) {
      const res = await get(`${path}?siteIds=${ALLOWED[1]}&fromDate=${t.today}&toDate=${t.today}`, { key: scoped });
      expect(res.status, res.text).toBe(200);
    }
    const res = await get(`/api/v1/reports/totals?siteIds=${ALLOWED[1]}&fromDate=${t.today}&toDate=${t.today}`, {
      key: scoped,
    });
    expect(res.json.totalImpressions).toBe((await sqlSums(t.db, [ALLOWED[1]], t.today, t.today)).impressions);
  });

  it('get 403 for any site outside their list, own account or not, existing or not', async () => {
    for (const path of REPORTS) {
      for (const siteIds of [
        DEMO_IDS.sites.mergeKingdom,
        `${ALLOWED[0]},${DEMO_IDS.sites.wordGarden}`,
        RIVAL_SITE_IDS[0],
        NONEXISTENT_SITE,
      ]) {
        expectProblem(await get(`${path}?siteIds=${siteIds}`, { key: scoped }), 403);
      }
    }
  });

  it('get 403 on the rows and on the legacy feed', async () => {
    expectProblem(await get('/api/v1/reports/countries', { key: scoped }), 403);
    expectProblem(await get('/api/v1/reports/countries?pageSize=1', { key: scoped }), 403);
    expectProblem(await get(`/api/v1/revenues/countries?apiKey=${scoped}`), 403);
    expectProblem(await get('/api/v1/revenues/countries', { key: scoped }), 403);
  });
});

describe('accounts are kept apart', () => {
  it("answers another account's site exactly like a nonexistent one (403)", async () => {
    for (const path of REPORTS) {
      const foreign = expectProblem(await get(`${path}?siteIds=${RIVAL_SITE_IDS[1]}`, { key: demo }), 403);
      const missing = expectProblem(await get(`${path}?siteIds=${NONEXISTENT_SITE}`, { key: demo }), 403);
      expect(comparable(foreign, RIVAL_SITE_IDS[1])).toEqual(comparable(missing, NONEXISTENT_SITE));
    }
  });

  it('the rows of rival hold only rival rows, and all of them', async () => {
    const rival = (await rivalKey()).raw;
    const all = await get('/api/v1/reports/countries?pageSize=1', { key: rival });
    const [{ n }] = await sqlRows<{ n: string }>(
      t.db,
      sql`select count(*)::text as n from revenue_daily where site_id = any(${uuidArray(RIVAL_SITE_IDS)})`,
    );
    expect(all.json.meta.totalRows).toBe(Number(n));
    const { rows } = await walkPages(
      `/api/v1/reports/countries?${q({ Filter: `createdAt>=${shiftDay(t.today, -29)}`, pageSize: 1000 })}`,
      rival,
    );
    expect(rows.length).toBe(RIVAL_SITE_IDS.length * 30 * 48);
    for (const row of rows) {
      expect(row.userId).toBe(DEMO_IDS.users.rival);
      expect(RIVAL_SITE_IDS).toContain(row.gameId);
    }
    const from = shiftDay(t.today, -29);
    const byCountry = await get(`/api/v1/reports/by-country?fromDate=${from}&toDate=${t.today}&pageSize=1000`, {
      key: rival,
    });
    const expected = await sqlSumsByCountry(t.db, RIVAL_SITE_IDS, from, t.today);
    for (const row of byCountry.json.data) expect(row.adRequests).toBe(expected.get(row.country)!.adRequests);
    expect(
      (await get(`/api/v1/reports/countries?Filter=gameId==${DEMO_SITE_IDS[0]}`, { key: rival })).json.meta.totalRows,
    ).toBe(0);
  });

  it('the rows of demo hold only demo rows; filters and searches cannot reach rival rows', async () => {
    const { rows } = await walkPages(
      `/api/v1/reports/countries?${q({ Filter: `createdAt>=${shiftDay(t.today, -9)}`, pageSize: 1000 })}`,
      demo,
    );
    expect(rows.length).toBe(DEMO_SITE_IDS.length * 10 * 48);
    for (const row of rows) {
      expect(row.userId).toBe(DEMO_IDS.users.demo);
      expect(DEMO_SITE_IDS).toContain(row.gameId);
    }
    for (const query of [
      `Filter=gameId==${RIVAL_SITE_IDS[0]}`,
      `FilterList[userId]=${DEMO_IDS.users.rival}`,
      'Search=Bubble',
      'Filter=gameName=@tank',
    ]) {
      const res = await get(`/api/v1/reports/countries?${query}`, { key: demo });
      expect(res.status, query).toBe(200);
      expect(res.json.meta.totalRows, query).toBe(0);
    }
  });

  it('an account without sites (the operator) gets empty reports, not errors', async () => {
    const admin = (await adminKey()).raw;
    expect((await get('/api/v1/reports/totals', { key: admin })).json).toEqual({
      totalImpressions: 0,
      totalRequests: 0,
      averageCpm: 0,
      totalRevenue: 0,
      fillRate: 0,
    });
    for (const path of ['/api/v1/reports/by-country', '/api/v1/reports/countries']) {
      const res = await get(path, { key: admin });
      expect(res.status).toBe(200);
      expect(res.json.meta).toMatchObject({ totalRows: 0, totalPages: 0 });
      expect(res.json.data).toEqual([]);
    }
    expectProblem(await get(`/api/v1/reports/totals?siteIds=${DEMO_SITE_IDS[0]}`, { key: admin }), 403);
  });
});

describe("the account's default range", () => {
  async function accountWithDays(defaultRangeDays: number) {
    const user = await createPublisher(t.db, { defaultRangeDays });
    const site = await createSite(t.db, user.id);
    const today = nowDay();
    // One row per day for 800 days back: impressions = days before today + 1, so the sum tells the window.
    const rows = Array.from({ length: 800 }, (_, i) => ({
      day: shiftDay(today, -i),
      country: 'US',
      impressions: i + 1,
      adRequests: i + 1,
    }));
    await createRevenue(t.db, site.id, rows);
    return { key: (await issueKey(user.id, { label: `range ${defaultRangeDays}` })).raw, today };
  }
  const triangle = (n: number) => (n * (n + 1)) / 2;

  it("applies the account's own default_range_days when dates are omitted", async () => {
    const { key } = await accountWithDays(7);
    expect((await get('/api/v1/reports/totals', { key })).json.totalImpressions).toBe(triangle(7));
    expect((await get('/api/v1/reports/by-country', { key })).json.data[0].impressions).toBe(triangle(7));
  });

  it('keeps every stored default inside the range the date grammar accepts (1..731 days)', async () => {
    for (const days of [0, -5, 732]) {
      await expect(createPublisher(t.db, { defaultRangeDays: days }), `default_range_days=${days}`).rejects.toThrow();
    }
    for (const [days, window] of [
      [1, 1],
      [731, 731],
    ]) {
      const { key } = await accountWithDays(days);
      expect((await get('/api/v1/reports/totals', { key })).json.totalImpressions).toBe(triangle(window));
    }
  });
});

describe('an account gone between the key check and the query', () => {
  const gone: Principal = {
    userId: '00000000-0000-4000-8000-00000000dead',
    role: 'publisher',
    siteScope: null,
    via: 'apiKey',
  };
  const expected = { code: 'unauthorized', detail: 'The account of this credential no longer exists.' };

  it('answers 401 from totals and by country, as the key does from then on', async () => {
    await expect(getTotals(gone, { siteIds: null, fromDate: null, toDate: null })).rejects.toMatchObject(expected);
    await expect(getRevenueByCountry(gone, byCountryQuery.parse({}))).rejects.toMatchObject(expected);
  });
});

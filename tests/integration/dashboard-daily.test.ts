import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS, DEMO_SITES } from '@/db/seed-data';
import { AppError } from '@/lib/shared/errors';
import { addDays, eachDay } from '@/lib/query';
import { type DailyPoint, getDailyRevenue } from '@/lib/reports/daily';
import type { Principal } from '@/lib/access/principal';
import { getTotals } from '@/lib/reports/reports';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { sessionPrincipal } from '../support/keys';

const t = useTestDatabase();
const micros = (usd: number) => Math.round(usd * 1e6);
const DEMO = sessionPrincipal(DEMO_IDS.users.demo);
const DEMO_SITE_IDS = DEMO_SITES.filter((s) => s.userId === DEMO_IDS.users.demo).map((s) => s.id);
const RIVAL_SITE_IDS = DEMO_SITES.filter((s) => s.userId === DEMO_IDS.users.rival).map((s) => s.id);

type Range = { from: string; to: string; sites: string[] | null };
const inputOf = (r: Range) => ({ fromDate: r.from, toDate: r.to, siteIds: r.sites });
const dailyOf = (principal: Principal, r: Range) => getDailyRevenue(principal, inputOf(r));

/** The daily series summed, in the API's units (revenue compared in micro-dollars: exact). */
function sumDaily(points: DailyPoint[]) {
  return {
    revenueMicros: points.reduce((s, p) => s + micros(p.revenue), 0),
    impressions: points.reduce((s, p) => s + p.impressions, 0),
    adRequests: points.reduce((s, p) => s + p.adRequests, 0),
  };
}

async function expectDailyEqualsTotals(principal: Principal, range: Range) {
  const [daily, totals] = await Promise.all([dailyOf(principal, range), getTotals(principal, inputOf(range))]);
  expect(daily.map((p) => p.day)).toEqual(eachDay(range.from, range.to));
  expect(sumDaily(daily), JSON.stringify(range)).toEqual({
    revenueMicros: micros(totals.totalRevenue),
    impressions: totals.totalImpressions,
    adRequests: totals.totalRequests,
  });
  return { daily, totals };
}

const zero = (day: string): DailyPoint => ({
  day,
  revenueMicros: 0,
  revenue: 0,
  impressions: 0,
  adRequests: 0,
  clicks: 0,
  cpm: 0,
  fillRate: 0,
});

describe('getDailyRevenue for an account of its own, exactly', () => {
  let owner: Principal;
  let siteA: string;
  let siteB: string;
  let emptySite: string;

  beforeAll(async () => {
    const user = await createPublisher(t.db);
    owner = sessionPrincipal(user.id);
    siteA = (await createSite(t.db, user.id)).id;
    siteB = (await createSite(t.db, user.id)).id;
    emptySite = (await createSite(t.db, user.id)).id;
    await createRevenue(t.db, siteA, [
      { day: '2025-01-30', country: 'US', revenueMicros: 1_234_567, impressions: 1_000, adRequests: 1_250, clicks: 7 },
      { day: '2025-01-30', country: 'DE', revenueMicros: 765_433, impressions: 500, adRequests: 750, clicks: 3 },
      { day: '2025-02-01', country: 'US', revenueMicros: 1, impressions: 3, adRequests: 9 },
      // Outside the ranges below, on both sides.
      { day: '2025-01-28', country: 'US', revenueMicros: 999_999_999, impressions: 999, adRequests: 999 },
      { day: '2025-02-04', country: 'US', revenueMicros: 999_999_999, impressions: 999, adRequests: 999 },
    ]);
    await createRevenue(t.db, siteB, [
      { day: '2025-01-30', country: 'US', revenueMicros: 3_000_000, impressions: 2_000, adRequests: 2_000, clicks: 11 },
      // Requests without a single impression: fill rate 0, eCPM 0.
      { day: '2025-02-02', country: 'FR', revenueMicros: 0, impressions: 0, adRequests: 40 },
    ]);
  });

  it('has one point per day, days without rows as zeros, in day order', async () => {
    const daily = await dailyOf(owner, { from: '2025-01-29', to: '2025-02-03', sites: null });
    expect(daily).toEqual([
      zero('2025-01-29'),
      {
        day: '2025-01-30',
        revenueMicros: 5_000_000,
        revenue: 5,
        impressions: 3_500,
        adRequests: 4_000,
        clicks: 21,
        cpm: 5 / 3.5,
        fillRate: 0.875,
      },
      zero('2025-01-31'),
      {
        day: '2025-02-01',
        revenueMicros: 1,
        revenue: 0.000001,
        impressions: 3,
        adRequests: 9,
        clicks: 0,
        cpm: (0.000001 / 3) * 1000,
        fillRate: 1 / 3,
      },
      {
        day: '2025-02-02',
        revenueMicros: 0,
        revenue: 0,
        impressions: 0,
        adRequests: 40,
        clicks: 0,
        cpm: 0,
        fillRate: 0,
      },
      zero('2025-02-03'),
    ]);
    for (const p of daily) {
      for (const v of [p.revenue, p.impressions, p.adRequests, p.clicks, p.cpm, p.fillRate])
        expect(typeof v).toBe('number');
    }
  });

  it('narrows to the chosen sites', async () => {
    expect(await dailyOf(owner, { from: '2025-01-30', to: '2025-02-02', sites: [siteA] })).toEqual([
      {
        day: '2025-01-30',
        revenueMicros: 2_000_000,
        revenue: 2,
        impressions: 1_500,
        adRequests: 2_000,
        clicks: 10,
        cpm: 2 / 1.5,
        fillRate: 0.75,
      },
      zero('2025-01-31'),
      {
        day: '2025-02-01',
        revenueMicros: 1,
        revenue: 0.000001,
        impressions: 3,
        adRequests: 9,
        clicks: 0,
        cpm: (0.000001 / 3) * 1000,
        fillRate: 1 / 3,
      },
      zero('2025-02-02'),
    ]);
    expect(await dailyOf(owner, { from: '2025-01-30', to: '2025-01-30', sites: [siteB, siteA] })).toEqual([
      {
        day: '2025-01-30',
        revenueMicros: 5_000_000,
        revenue: 5,
        impressions: 3_500,
        adRequests: 4_000,
        clicks: 21,
        cpm: 5 / 3.5,
        fillRate: 0.875,
      },
    ]);
  });

  it('is all zeros for a site without rows, and for ranges without rows', async () => {
    expect(await dailyOf(owner, { from: '2025-01-29', to: '2025-02-03', sites: [emptySite] })).toEqual(
      eachDay('2025-01-29', '2025-02-03').map(zero),
    );
    expect(await dailyOf(owner, { from: '2019-12-30', to: '2020-01-02', sites: null })).toEqual(
      eachDay('2019-12-30', '2020-01-02').map(zero),
    );
  });

  it('is all zeros, one per day, for an account without sites', async () => {
    const lonely = sessionPrincipal((await createPublisher(t.db)).id);
    expect(await dailyOf(lonely, { from: '2024-02-27', to: '2024-03-01', sites: null })).toEqual(
      ['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01'].map(zero),
    );
  });

  it('adds up to the totals report for the same range and sites, including ranges with whole months', async () => {
    for (const range of [
      { from: '2025-01-29', to: '2025-02-03', sites: null },
      { from: '2025-01-01', to: '2025-02-28', sites: null }, // whole months only
      { from: '2024-12-15', to: '2025-03-10', sites: null }, // partial, whole, partial
      { from: '2025-01-30', to: '2025-02-04', sites: [siteA] },
      { from: '2025-01-01', to: '2025-01-31', sites: [siteB, emptySite] },
    ]) {
      await expectDailyEqualsTotals(owner, range);
    }
    const { totals } = await expectDailyEqualsTotals(owner, { from: '2025-01-01', to: '2025-02-28', sites: null });
    expect(micros(totals.totalRevenue)).toBe(1_234_567 + 765_433 + 1 + 999_999_999 * 2 + 3_000_000);
  });

  it('refuses a site of another account with a 403, naming no data', async () => {
    const range = { from: '2025-01-29', to: '2025-02-03' };
    for (const sites of [[DEMO_SITE_IDS[0]], [siteA, RIVAL_SITE_IDS[0]], ['0badc0de-0000-4000-8000-000000000000']]) {
      const err = await dailyOf(owner, { ...range, sites }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('forbidden');
    }
    // And the other way round: the demo account cannot read this account's site.
    const err = await dailyOf(DEMO, { ...range, sites: [siteA] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('forbidden');
  });

  it('keeps a site-scoped principal to its sites', async () => {
    const scoped: Principal = { ...owner, siteScope: [siteB], via: 'apiKey' };
    const daily = await dailyOf(scoped, { from: '2025-01-30', to: '2025-01-30', sites: null });
    expect(daily).toEqual([
      {
        day: '2025-01-30',
        revenueMicros: 3_000_000,
        revenue: 3,
        impressions: 2_000,
        adRequests: 2_000,
        clicks: 11,
        cpm: 1.5,
        fillRate: 1,
      },
    ]);
    const err = await dailyOf(scoped, { from: '2025-01-30', to: '2025-01-30', sites: [siteA] }).catch(
      (e: unknown) => e,
    );
    expect((err as AppError).code).toBe('forbidden');
  });
});

describe('getDailyRevenue for the demo account', () => {
  it('has a point for every day of the last 30 days and adds up to the totals report', async () => {
    const range = { from: addDays(t.today, -29), to: t.today, sites: null };
    const { daily, totals } = await expectDailyEqualsTotals(DEMO, range);
    expect(daily).toHaveLength(30);
    expect(totals.totalImpressions).toBeGreaterThan(0);
    expect(daily.every((p) => p.adRequests > 0)).toBe(true);
  });

  it('adds up to the totals report over long ranges, month boundaries and chosen sites', async () => {
    const monthStart = `${t.today.slice(0, 7)}-01`;
    const ranges: Range[] = [
      { from: addDays(t.today, -364), to: t.today, sites: null },
      { from: addDays(monthStart, -3), to: addDays(monthStart, 2), sites: null },
      { from: `${addDays(monthStart, -1).slice(0, 7)}-01`, to: addDays(monthStart, -1), sites: null }, // last month exactly
      { from: addDays(t.today, -500), to: addDays(t.today, -300), sites: null }, // partly before the data
      { from: addDays(t.today, -90), to: t.today, sites: [DEMO_SITE_IDS[0]] },
      { from: addDays(t.today, -200), to: addDays(t.today, -20), sites: DEMO_SITE_IDS.slice(1, 3) },
    ];
    for (const range of ranges) await expectDailyEqualsTotals(DEMO, range);
  });

  it('includes days after the data as zeros', async () => {
    const daily = await dailyOf(DEMO, { from: addDays(t.today, -1), to: addDays(t.today, 2), sites: null });
    expect(daily.map((p) => p.day)).toEqual(eachDay(addDays(t.today, -1), addDays(t.today, 2)));
    expect(daily[0].impressions).toBeGreaterThan(0);
    expect(daily.slice(2)).toEqual([zero(addDays(t.today, 1)), zero(addDays(t.today, 2))]);
  });

  it("refuses the rival's site with a 403", async () => {
    const err = await dailyOf(DEMO, { from: addDays(t.today, -6), to: t.today, sites: [RIVAL_SITE_IDS[0]] }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('forbidden');
  });
});

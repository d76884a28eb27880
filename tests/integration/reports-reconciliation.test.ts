/**
 * The three reports are views of the same rows: totals = Σ by country = Σ rows = Σ revenue_daily,
 * exactly (volumes as integers, money in micro-dollars), with ratios computed from the sums.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { demoKey, issueKey } from '../support/keys';
import {
  DEMO_SITE_IDS,
  expectRatio,
  expectShape,
  micros,
  q,
  shiftDay,
  sqlSums,
  sqlSumsByCountry,
  TOTALS_SHAPE,
  walkPages,
} from './reports-helpers';

const t = useTestDatabase();

interface Acc {
  impressions: number;
  adRequests: number;
  micros: number;
  rows: number;
}
const zero = (): Acc => ({ impressions: 0, adRequests: 0, micros: 0, rows: 0 });
function add(acc: Acc, row: { impressions: number; adRequests: number; revenueAmount: number }) {
  acc.impressions += row.impressions;
  acc.adRequests += row.adRequests;
  acc.micros += micros(row.revenueAmount);
  acc.rows += 1;
}

/** Totals, every by-country page and every page of rows for one site set and range, all reconciled. */
async function reconcile(key: string, siteIds: string[] | null, from: string, to: string, withRows = true) {
  const sites = siteIds ?? DEMO_SITE_IDS;
  const scope = { ...(siteIds ? { siteIds: siteIds.join(',') } : {}), fromDate: from, toDate: to };
  const totals = await get(`/api/v1/reports/totals?${q(scope)}`, { key });
  expect(totals.status, totals.text).toBe(200);
  expectShape(totals.json, TOTALS_SHAPE, 'totals');

  const byCountry = await walkPages(
    `/api/v1/reports/by-country?${q({ ...scope, pageSize: 10, sortBy: 'revenueAmount' })}`,
    key,
  );
  const countrySum = zero();
  for (const row of byCountry.rows) add(countrySum, row);

  const sql = await sqlSums(t.db, sites, from, to);
  expect(sql.rows).toBeGreaterThan(0);
  const T = totals.json;
  expect([T.totalImpressions, T.totalRequests, micros(T.totalRevenue)]).toEqual([
    sql.impressions,
    sql.adRequests,
    sql.revenueMicros,
  ]);
  expect([countrySum.impressions, countrySum.adRequests, countrySum.micros]).toEqual([
    sql.impressions,
    sql.adRequests,
    sql.revenueMicros,
  ]);
  expectRatio(T.averageCpm, sql.revenueMicros / 1e6, sql.impressions, 1000);
  expectRatio(T.fillRate, sql.impressions, sql.adRequests);

  const perCountry = await sqlSumsByCountry(t.db, sites, from, to);
  expect(byCountry.rows.length).toBe(perCountry.size);
  for (const row of byCountry.rows) {
    const s = perCountry.get(row.country)!;
    expect([row.impressions, row.adRequests, micros(row.revenueAmount)], row.country).toEqual([
      s.impressions,
      s.adRequests,
      s.revenueMicros,
    ]);
    expectRatio(row.cpm, s.revenueMicros / 1e6, s.impressions, 1000);
    expectRatio(row.fillRate, s.impressions, s.adRequests);
  }
  if (!withRows) return;

  const filter = `createdAt>=${from};createdAt<=${to};${sites.map((id) => `gameId==${id}`).join(',')}`;
  const paged = await walkPages(`/api/v1/reports/countries?${q({ Filter: filter, pageSize: 1000 })}`, key);
  const pagedSum = zero();
  const pagedByCountry = new Map<string, Acc>();
  for (const row of paged.rows) {
    add(pagedSum, row);
    if (!pagedByCountry.has(row.country)) pagedByCountry.set(row.country, zero());
    add(pagedByCountry.get(row.country)!, row);
    expect(sites).toContain(row.gameId);
    expect(row.createdAt.slice(0, 10) >= from && row.createdAt.slice(0, 10) <= to).toBe(true);
  }
  expect(pagedSum).toEqual({
    impressions: sql.impressions,
    adRequests: sql.adRequests,
    micros: sql.revenueMicros,
    rows: sql.rows,
  });
  for (const row of byCountry.rows) {
    const g = pagedByCountry.get(row.country)!;
    expect([g.impressions, g.adRequests, g.micros]).toEqual([
      row.impressions,
      row.adRequests,
      micros(row.revenueAmount),
    ]);
  }
}

/** The first day of a month boundary at least 20 days back, so ±6 days around it stay inside the data. */
function monthBoundary(today: string) {
  return `${shiftDay(today, -20).slice(0, 7)}-01`;
}

describe('totals = Σ by country = Σ rows = Σ revenue_daily', () => {
  it('all sites (siteIds omitted), the last 30 days', async () => {
    await reconcile((await demoKey()).raw, null, shiftDay(t.today, -29), t.today);
  });

  it('one site, a range crossing a month boundary', async () => {
    const b = monthBoundary(t.today);
    await reconcile((await demoKey()).raw, [DEMO_IDS.sites.mergeKingdom], shiftDay(b, -6), shiftDay(b, 5));
  });

  it('two sites, 45 days', async () => {
    const sites = [DEMO_IDS.sites.skyHopper, DEMO_IDS.sites.dungeonDash];
    await reconcile((await demoKey()).raw, sites, shiftDay(t.today, -50), shiftDay(t.today, -6));
  });

  it('a single day: all five sites listed explicitly, and one site alone', async () => {
    const key = (await demoKey()).raw;
    const day = shiftDay(t.today, -12);
    await reconcile(key, [...DEMO_SITE_IDS], day, day);
    await reconcile(key, [DEMO_IDS.sites.wordGarden], t.today, t.today);
  });

  it('a whole year and a range reaching before the data (totals and by-country)', async () => {
    const key = (await demoKey()).raw;
    await reconcile(key, null, shiftDay(t.today, -364), t.today, false);
    await reconcile(key, [DEMO_IDS.sites.driftRacers], shiftDay(t.today, -400), shiftDay(t.today, -350));
  });

  it('a site-scoped key reconciles over its own sites', async () => {
    const allowed = [DEMO_IDS.sites.wordGarden, DEMO_IDS.sites.driftRacers];
    const { raw } = await issueKey(DEMO_IDS.users.demo, { siteIds: allowed, label: 'reconcile scoped' });
    const from = shiftDay(t.today, -29);
    const totals = await get(`/api/v1/reports/totals?fromDate=${from}&toDate=${t.today}`, { key: raw });
    const { rows } = await walkPages(`/api/v1/reports/by-country?fromDate=${from}&toDate=${t.today}&pageSize=9`, raw);
    const sum = zero();
    for (const row of rows) add(sum, row);
    const sql = await sqlSums(t.db, allowed, from, t.today);
    expect([totals.json.totalImpressions, totals.json.totalRequests, micros(totals.json.totalRevenue)]).toEqual([
      sql.impressions,
      sql.adRequests,
      sql.revenueMicros,
    ]);
    expect([sum.impressions, sum.adRequests, sum.micros]).toEqual([sql.impressions, sql.adRequests, sql.revenueMicros]);
  });

  it('money adds up to the micro-dollar on awkward amounts, and zero divisors give 0 ratios', async () => {
    const user = await createPublisher(t.db);
    const [a, b] = [await createSite(t.db, user.id), await createSite(t.db, user.id)];
    const day = shiftDay(t.today, -2);
    const next = shiftDay(day, 1);
    await createRevenue(t.db, a.id, [
      { day, country: 'US', impressions: 3, adRequests: 7, revenueMicros: 1 },
      { day, country: 'DE', impressions: 0, adRequests: 0, revenueMicros: 0 },
      { day: next, country: 'US', impressions: 1_999_999, adRequests: 2_000_001, revenueMicros: 123_456_789_013 },
    ]);
    await createRevenue(t.db, b.id, [
      { day, country: 'US', impressions: 1, adRequests: 3, revenueMicros: 333_333 },
      { day: next, country: 'FR', impressions: 0, adRequests: 5, revenueMicros: 0 },
    ]);
    const { raw } = await issueKey(user.id, { label: 'awkward' });
    await reconcile(raw, [a.id, b.id], day, next);
    const de = await get(`/api/v1/reports/by-country?fromDate=${day}&toDate=${next}&Filter=country==DE,country==FR`, {
      key: raw,
    });
    expect([...de.json.data].sort((x, y) => x.country.localeCompare(y.country))).toEqual([
      { country: 'DE', revenueAmount: 0, cpm: 0, adRequests: 0, impressions: 0, fillRate: 0 },
      { country: 'FR', revenueAmount: 0, cpm: 0, adRequests: 5, impressions: 0, fillRate: 0 },
    ]);
    const us = await get(`/api/v1/reports/totals?fromDate=${day}&toDate=${day}&siteIds=${a.id}`, { key: raw });
    expect(us.json).toMatchObject({ totalImpressions: 3, totalRequests: 7, totalRevenue: 0.000001 });
    expectRatio(us.json.averageCpm, 0.000001, 3, 1000);
    expectRatio(us.json.fillRate, 3, 7);
  });
});

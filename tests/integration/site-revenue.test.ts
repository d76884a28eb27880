/**
 * The Sites page's figures (issue 10, point 1): per-site sums from the rollup add up exactly to the totals
 * report for any range and site set, each sparkline adds up to its site's revenue, and scope holds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { getTotals } from '@/lib/reports/reports';
import { getRevenueBySite, SERIES_POINTS } from '@/lib/reports/by-site';
import { loadSiteBreakdown } from '@/lib/dashboard/sites';
import { useTestDatabase } from '../support/db';
import { sessionPrincipal } from '../support/keys';
import { DEMO_SITE_IDS, shiftDay } from './reports-helpers';

const t = useTestDatabase();
const demo = sessionPrincipal(DEMO_IDS.users.demo);
const micros = (usd: number) => Math.round(usd * 1_000_000);
const sum = (values: number[]) => values.reduce((a, b) => a + micros(b), 0);

describe('revenue by site', () => {
  it('adds up exactly to the totals report, for any range and site set', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 731 }),
        fc.option(fc.subarray([...DEMO_SITE_IDS], { minLength: 1 }), { nil: null }),
        async (end, length, siteIds) => {
          const toDate = shiftDay(t.today, -end);
          const range = { fromDate: shiftDay(toDate, -(length - 1)), toDate, siteIds };
          const [bySite, totals] = await Promise.all([getRevenueBySite(demo, range), getTotals(demo, range)]);
          expect(bySite.map((s) => s.siteId).sort()).toEqual([...(siteIds ?? DEMO_SITE_IDS)].sort());
          expect(sum(bySite.map((s) => s.revenue))).toBe(micros(totals.totalRevenue));
          expect(bySite.reduce((a, s) => a + s.impressions, 0)).toBe(totals.totalImpressions);
          expect(bySite.reduce((a, s) => a + s.adRequests, 0)).toBe(totals.totalRequests);
          for (const site of bySite) {
            expect(site.series.length).toBeLessThanOrEqual(SERIES_POINTS);
            expect(sum(site.series)).toBe(micros(site.revenue));
          }
          // The first and the last points are their own days' revenue, so the points sit where their days are.
          const perBucket = Math.ceil(length / SERIES_POINTS);
          const top = bySite[0];
          const lastStart = shiftDay(range.fromDate, (top.series.length - 1) * perBucket);
          const [first, last] = await Promise.all(
            [
              { fromDate: range.fromDate, toDate: shiftDay(range.fromDate, perBucket - 1) },
              { fromDate: lastStart, toDate },
            ].map((days) => getRevenueBySite(demo, { ...days, siteIds: [top.siteId] })),
          );
          expect([micros(top.series[0]), micros(top.series.at(-1)!)]).toEqual([
            micros(first[0].revenue),
            micros(last[0].revenue),
          ]);
          const revenues = bySite.map((s) => s.revenue);
          expect(revenues).toEqual([...revenues].sort((a, b) => b - a));
        },
      ),
      { numRuns: 20 },
    );
  });

  it('shows only the sites a principal may read, and refuses another account’s', async () => {
    const scoped = { ...demo, siteScope: [DEMO_SITE_IDS[0]] };
    const range = { fromDate: shiftDay(t.today, -29), toDate: t.today, siteIds: null };
    expect((await getRevenueBySite(scoped, range)).map((s) => s.siteId)).toEqual([DEMO_SITE_IDS[0]]);
    await expect(getRevenueBySite(demo, { ...range, siteIds: [DEMO_IDS.sites.bubblePop] })).rejects.toMatchObject({
      code: 'forbidden',
    });
  });

  it('lists a site without revenue in the range with zeros', async () => {
    const range = { fromDate: '2001-01-01', toDate: '2001-01-31', siteIds: null };
    const bySite = await getRevenueBySite(demo, range);
    expect(bySite).toHaveLength(DEMO_SITE_IDS.length);
    for (const site of bySite) {
      expect(site).toMatchObject({ revenue: 0, impressions: 0, cpm: 0, fillRate: 0 });
      expect(site.series).toEqual(new Array(31).fill(0));
    }
  });

  it("gives the Sites table only what it shows, each sparkline point in whole cents of the site's figures", async () => {
    const range = { fromDate: shiftDay(t.today, -29), toDate: t.today, siteIds: null };
    const [{ rows }, bySite] = await Promise.all([
      loadSiteBreakdown(demo, range, 'previous', t.today),
      getRevenueBySite(demo, range),
    ]);
    expect(rows.map((row) => row.siteId)).toEqual(bySite.map((site) => site.siteId));
    for (const [i, row] of rows.entries()) {
      const { siteId, name, url, status, revenue, impressions, cpm, fillRate, series } = bySite[i];
      expect(Object.keys(row).sort()).toEqual(
        ['siteId', 'name', 'url', 'status', 'revenue', 'impressions', 'cpm', 'fillRate', 'series', 'change'].sort(),
      );
      expect(row).toMatchObject({ siteId, name, url, status, revenue, impressions, cpm, fillRate });
      expect(row.series).toHaveLength(series.length);
      for (const [j, cents] of row.series.entries()) {
        expect(Math.abs(cents - series[j])).toBeLessThanOrEqual(0.005 + 1e-9);
        expect(Math.abs(cents * 100 - Math.round(cents * 100))).toBeLessThan(1e-6);
      }
      expect(row.change).not.toBeNull();
    }
    expect(rows.some((row) => row.series.some((usd) => usd > 0))).toBe(true);
  });
});

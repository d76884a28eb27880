/**
 * The dashboard's country filter (issue 10, point 5: a row of the Countries table filters the dashboard to its
 * country): totals, the daily series, the per-site figures and the by-country row of one country agree exactly
 * with each other and with plain SQL over revenue_daily, for any range, site set and country, whichever
 * grains and pieces (revenue-source.ts) answered.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { byCountryQuery } from '@/lib/reports/field-sql';
import { getDailyRevenue } from '@/lib/reports/daily';
import { getRevenueByCountry, getTotals } from '@/lib/reports/reports';
import { getRevenueBySite } from '@/lib/reports/by-site';
import { useTestDatabase } from '../support/db';
import { sessionPrincipal } from '../support/keys';
import { DEMO_SITE_IDS, micros, shiftDay, sqlSumsByCountry } from './reports-helpers';

const t = useTestDatabase();
const demo = sessionPrincipal(DEMO_IDS.users.demo);
const sumMicros = (values: number[]) => values.reduce((a, v) => a + micros(v), 0);

describe('one country', () => {
  it('has the same figures in every view, equal to revenue_daily, for any range and site set', async () => {
    const countries = [...(await sqlSumsByCountry(t.db, DEMO_SITE_IDS, shiftDay(t.today, -400), t.today)).keys()];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 200 }),
        fc.option(fc.subarray([...DEMO_SITE_IDS], { minLength: 1 }), { nil: null }),
        fc.constantFrom(...countries, 'AQ'),
        async (end, length, siteIds, country) => {
          const toDate = shiftDay(t.today, -end);
          const fromDate = shiftDay(toDate, -(length - 1));
          const input = { fromDate, toDate, siteIds, country };
          const [expected] = [(await sqlSumsByCountry(t.db, siteIds ?? DEMO_SITE_IDS, fromDate, toDate)).get(country)];
          const [totals, daily, bySite, byCountry] = await Promise.all([
            getTotals(demo, input),
            getDailyRevenue(demo, input),
            getRevenueBySite(demo, input),
            getRevenueByCountry(demo, { ...byCountryQuery.parse({}), ...input }),
          ]);
          const want = expected ?? { revenueMicros: 0, impressions: 0, adRequests: 0 };
          expect(micros(totals.totalRevenue)).toBe(want.revenueMicros);
          expect(totals.totalImpressions).toBe(want.impressions);
          expect(totals.totalRequests).toBe(want.adRequests);
          expect(sumMicros(daily.map((d) => d.revenue))).toBe(want.revenueMicros);
          expect(daily.reduce((a, d) => a + d.impressions, 0)).toBe(want.impressions);
          expect(sumMicros(bySite.map((s) => s.revenue))).toBe(want.revenueMicros);
          expect(bySite.reduce((a, s) => a + s.adRequests, 0)).toBe(want.adRequests);
          for (const site of bySite) expect(sumMicros(site.series)).toBe(micros(site.revenue));
          expect(byCountry.data.map((row) => row.country)).toEqual(expected ? [country] : []);
          if (expected) expect(micros(byCountry.data[0].revenueAmount)).toBe(want.revenueMicros);
        },
      ),
      { numRuns: 40 },
    );
  });
});

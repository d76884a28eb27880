import { describe, expect, it } from 'vitest';
import { countryName } from '@/lib/shared/countries';
import { LARGE, LARGE_COUNTRIES, LARGE_SITES } from '@/db/seed-large';
import { DEMO_SITES, dayNumber, revenueFor } from '@/db/seed-data';

describe('the large data set (npm run db:seed -- --scale large)', () => {
  it('has 100 distinct sites and 200 distinct real countries, none shared with the demo', () => {
    expect(LARGE_SITES).toHaveLength(LARGE.sites);
    expect(new Set(LARGE_SITES.map((s) => s.id)).size).toBe(LARGE.sites);
    expect(LARGE_SITES.some((s) => DEMO_SITES.some((d) => d.id === s.id))).toBe(false);
    expect(LARGE_COUNTRIES).toHaveLength(LARGE.countries);
    expect(new Set(LARGE_COUNTRIES.map((c) => c.code)).size).toBe(LARGE.countries);
    for (const c of LARGE_COUNTRIES) expect(countryName(c.code), c.code).not.toBeNull();
  });

  it('gives sites of different sizes and numbers that keep fill rate within 0..1', () => {
    const users = LARGE_SITES.map((s) => s.dailyActiveUsers);
    expect(Math.max(...users) / Math.min(...users)).toBeGreaterThan(5);
    const day = dayNumber('2026-06-15');
    for (const site of LARGE_SITES.slice(0, 10)) {
      for (const country of LARGE_COUNTRIES) {
        const v = revenueFor(site, day, country);
        expect(v.impressions).toBeLessThanOrEqual(v.adRequests);
        expect(Number.isInteger(v.revenueMicros) && v.revenueMicros >= 0).toBe(true);
      }
    }
  });
});

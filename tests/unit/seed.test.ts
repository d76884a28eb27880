import { describe, expect, it } from 'vitest';
import { DEMO_IDS, DEMO_SITES, dayNumber, dayString, demoUuid, revenueFor } from '@/db/seed-data';
import { COUNTRIES } from '@/lib/shared/countries';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('demo ids', () => {
  it('are v5-shaped UUIDs derived from a name', () => {
    expect(demoUuid('x')).toMatch(UUID);
    expect(demoUuid('x')).toBe(demoUuid('x'));
    expect(demoUuid('x')).not.toBe(demoUuid('y'));
  });

  it('never change, because docs and tests name them', () => {
    expect(DEMO_IDS.users.demo).toBe('9b571a08-3ef8-55c5-b71d-6da6de4fd07f');
    expect(DEMO_IDS.sites.skyHopper).toBe('f99a8b03-12a5-519e-bc49-9e4ce25d3f29');
    const all = [...Object.values(DEMO_IDS.users), ...Object.values(DEMO_IDS.sites)];
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('days', () => {
  it('converts between YYYY-MM-DD and day numbers', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayString(dayNumber('2024-02-29') + 1)).toBe('2024-03-01');
  });

  it.each(['2025-02-30', '2025-13-01', '25-01-01', '2025-1-1', ''])('rejects %j', (day) => {
    expect(() => dayNumber(day)).toThrow(/YYYY-MM-DD/);
  });
});

describe('revenueFor', () => {
  const days = Array.from({ length: 400 }, (_, i) => dayNumber('2025-06-01') + i);
  const all = DEMO_SITES.flatMap((site) => days.flatMap((day) => COUNTRIES.map((c) => revenueFor(site, day, c))));

  it('is a pure function of site, day and country', () => {
    const [site, day, country] = [DEMO_SITES[2], days[77], COUNTRIES[9]];
    expect(revenueFor(site, day, country)).toEqual(revenueFor(site, day, country));
    expect(revenueFor(site, day, country)).not.toEqual(revenueFor(site, day + 1, country));
  });

  it('keeps every row consistent', () => {
    // Collected rather than asserted row by row: 100k expect() calls would take seconds.
    const broken = all.filter((v) => {
      const counts = Object.values(v).every((n) => Number.isSafeInteger(n) && n >= 0) && v.adRequests > 0;
      if (v.impressions === 0) return !(counts && v.clicks === 0 && v.revenueMicros === 0);
      const fill = v.impressions / v.adRequests;
      return !(counts && fill >= 0.6 && fill <= 0.98 && v.clicks <= v.impressions * 0.02 + 0.5 && v.revenueMicros > 0);
    });
    expect(broken).toEqual([]);
  });

  it('has a few outage days, not many', () => {
    const zero = all.filter((v) => v.impressions === 0).length;
    expect(zero).toBeGreaterThan(0);
    expect(zero / all.length).toBeLessThan(0.02);
  });
});

import { describe, expect, it } from 'vitest';
import { matchPreset, PRESETS, presetRange, type PresetId } from '@/lib/dashboard/presets';
import { readSiteDay } from '@/lib/dashboard/url';
import { addDays, daysBetweenInclusive, isDay, resolveRange } from '@/lib/query';

// An account whose data began long ago: "All time" reaches back as far as a range may.
const FIRST_DAY = '2020-01-01';
const ranges = (today: string) => Object.fromEntries(PRESETS.map((p) => [p.id, presetRange(p.id, today, FIRST_DAY)]));

describe('presetRange', () => {
  it("lists the issue's presets in order with their labels", () => {
    expect(PRESETS.map((p) => p.label)).toEqual([
      'Today',
      'Yesterday',
      'Last 7 days',
      'Last 30 days',
      'Last 90 days',
      'This month',
      'Last month',
      'Last 12 months',
      'Year to date',
      'All time',
    ]);
  });

  it('gives inclusive UTC day ranges relative to today', () => {
    expect(ranges('2026-03-15')).toEqual({
      today: { from: '2026-03-15', to: '2026-03-15' },
      yesterday: { from: '2026-03-14', to: '2026-03-14' },
      '7d': { from: '2026-03-09', to: '2026-03-15' },
      '30d': { from: '2026-02-14', to: '2026-03-15' },
      '90d': { from: '2025-12-16', to: '2026-03-15' },
      mtd: { from: '2026-03-01', to: '2026-03-15' },
      lastmonth: { from: '2026-02-01', to: '2026-02-28' },
      '12m': { from: '2025-03-16', to: '2026-03-15' },
      ytd: { from: '2026-01-01', to: '2026-03-15' },
      all: { from: '2024-03-15', to: '2026-03-15' },
    });
  });

  it('starts "All time" at the first day of data, at most 731 days back, and at today without data', () => {
    expect(presetRange('all', '2026-03-15', '2025-07-04')).toEqual({ from: '2025-07-04', to: '2026-03-15' });
    expect(daysBetweenInclusive(presetRange('all', '2026-03-15', FIRST_DAY).from, '2026-03-15')).toBe(731);
    expect(presetRange('all', '2026-03-15', null)).toEqual({ from: '2026-03-15', to: '2026-03-15' });
    // Rows dated in the future (an import ahead of time) do not make a range that ends before it starts.
    expect(presetRange('all', '2026-03-15', '2026-04-01')).toEqual({ from: '2026-03-15', to: '2026-03-15' });
  });

  it('counts 7, 30 and 90 days including today', () => {
    for (const today of ['2026-03-15', '2024-02-29', '2026-01-01', '2025-12-31']) {
      expect(daysBetweenInclusive(presetRange('7d', today, FIRST_DAY).from, today)).toBe(7);
      expect(daysBetweenInclusive(presetRange('30d', today, FIRST_DAY).from, today)).toBe(30);
      expect(daysBetweenInclusive(presetRange('90d', today, FIRST_DAY).from, today)).toBe(90);
    }
  });

  it('takes the last 12 months as 365 or 366 whole days up to today, and yesterday across a year', () => {
    expect(presetRange('12m', '2024-02-29', FIRST_DAY)).toEqual({ from: '2023-03-01', to: '2024-02-29' });
    expect(presetRange('12m', '2025-03-01', FIRST_DAY)).toEqual({ from: '2024-03-02', to: '2025-03-01' });
    expect(daysBetweenInclusive(presetRange('12m', '2026-11-25', FIRST_DAY).from, '2026-11-25')).toBe(365);
    expect(presetRange('yesterday', '2026-01-01', FIRST_DAY)).toEqual({ from: '2025-12-31', to: '2025-12-31' });
  });

  it('takes last month across the year boundary in January', () => {
    expect(presetRange('lastmonth', '2026-01-10', FIRST_DAY)).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(presetRange('lastmonth', '2026-01-01', FIRST_DAY)).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(presetRange('lastmonth', '2026-01-31', FIRST_DAY)).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });

  it('ends last month on February 29 in a leap year and on February 28 otherwise', () => {
    expect(presetRange('lastmonth', '2024-03-05', FIRST_DAY)).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(presetRange('lastmonth', '2025-03-31', FIRST_DAY)).toEqual({ from: '2025-02-01', to: '2025-02-28' });
    expect(presetRange('lastmonth', '2000-03-01', FIRST_DAY)).toEqual({ from: '2000-02-01', to: '2000-02-29' });
    expect(presetRange('lastmonth', '2100-03-01', FIRST_DAY)).toEqual({ from: '2100-02-01', to: '2100-02-28' });
    // Months of 30 and 31 days.
    expect(presetRange('lastmonth', '2026-05-31', FIRST_DAY)).toEqual({ from: '2026-04-01', to: '2026-04-30' });
    expect(presetRange('lastmonth', '2026-08-01', FIRST_DAY)).toEqual({ from: '2026-07-01', to: '2026-07-31' });
  });

  it('starts this month on the 1st and the year on January 1 (a single day on those days)', () => {
    expect(presetRange('mtd', '2024-02-29', FIRST_DAY)).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(presetRange('mtd', '2026-03-01', FIRST_DAY)).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(presetRange('ytd', '2026-12-31', FIRST_DAY)).toEqual({ from: '2026-01-01', to: '2026-12-31' });
    expect(presetRange('ytd', '2026-01-01', FIRST_DAY)).toEqual({ from: '2026-01-01', to: '2026-01-01' });
  });

  it("always yields real days, from <= to, that the filter bar's URL reader accepts as they are", () => {
    let today = '2023-12-25';
    for (let i = 0; i < 800; i++, today = addDays(today, 1)) {
      for (const p of PRESETS) {
        const r = presetRange(p.id, today, FIRST_DAY);
        expect(isDay(r.from) && isDay(r.to), `${p.id} ${today}`).toBe(true);
        expect(r.from <= r.to && r.to <= today, `${p.id} ${today}`).toBe(true);
        expect(readSiteDay(r), `${p.id} ${today}`).toEqual({ fromDate: r.from, toDate: r.to, siteIds: null });
      }
    }
  });
});

describe('matchPreset', () => {
  it("recognises every preset's own range", () => {
    const today = '2026-03-15';
    for (const p of PRESETS) {
      const r = presetRange(p.id, today, FIRST_DAY);
      expect(matchPreset(r.from, r.to, today, FIRST_DAY)).toBe(p.id);
    }
  });

  it('finds a preset whose range it is, on every day of two years', () => {
    let today = '2024-01-01';
    for (let i = 0; i < 731; i++, today = addDays(today, 1)) {
      for (const p of PRESETS) {
        const r = presetRange(p.id, today, FIRST_DAY);
        const matched = matchPreset(r.from, r.to, today, FIRST_DAY) as PresetId;
        // Two presets can name the same days (on January 1–7 "This month", "Year to date" and "Last 7 days" may
        // coincide); the match must then be one with exactly those days.
        expect(presetRange(matched, today, FIRST_DAY), `${p.id} on ${today}`).toEqual(r);
      }
    }
  });

  it('calls the default view of an account with the usual 30 days "Last 30 days"', () => {
    const today = '2026-03-15';
    const defaults = resolveRange({ fromDate: null, toDate: null }, { defaultDays: 30, today });
    expect(matchPreset(defaults.fromDate, defaults.toDate, today, FIRST_DAY)).toBe('30d');
  });

  it('is "custom" for anything else, including a preset\'s days relative to another today', () => {
    expect(matchPreset('2026-03-01', '2026-03-10', '2026-03-15', FIRST_DAY)).toBe('custom');
    expect(matchPreset('2026-03-09', '2026-03-15', '2026-03-16', FIRST_DAY)).toBe('custom');
    expect(matchPreset('2026-02-14', '2026-03-14', '2026-03-15', FIRST_DAY)).toBe('custom');
    expect(matchPreset('2026-02-01', '2026-02-27', '2026-03-15', FIRST_DAY)).toBe('custom');
  });
});

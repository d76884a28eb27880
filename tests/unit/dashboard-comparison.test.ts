import { describe, expect, it } from 'vitest';
import { comparisonRange, completePart, readCompare } from '@/lib/dashboard/comparison';

const r = (fromDate: string, toDate: string) => ({ fromDate, toDate });

describe('comparisonRange', () => {
  it('compares with nothing when the compared days would begin before year 1000', () => {
    expect(comparisonRange(r('1000-01-01', '1000-01-10'), 'previous')).toBeNull();
    expect(comparisonRange(r('1000-06-01', '1000-06-10'), 'year')).toBeNull();
    expect(comparisonRange(r('1000-01-11', '1000-01-20'), 'previous')).toEqual(r('1000-01-01', '1000-01-10'));
  });

  it('compares a whole month with the whole previous month, and a month to date day for day', () => {
    expect(comparisonRange(r('2026-10-01', '2026-10-31'), 'previous')).toEqual(r('2026-09-01', '2026-09-30'));
    expect(comparisonRange(r('2026-11-01', '2026-11-23'), 'previous')).toEqual(r('2026-10-01', '2026-10-23'));
    expect(comparisonRange(r('2026-03-01', '2026-03-31'), 'previous')).toEqual(r('2026-02-01', '2026-02-28'));
    expect(comparisonRange(r('2026-03-01', '2026-03-30'), 'previous')).toEqual(r('2026-02-01', '2026-02-28'));
    expect(comparisonRange(r('2026-01-01', '2026-01-15'), 'previous')).toEqual(r('2025-12-01', '2025-12-15'));
  });

  it('compares any other range with as many days just before it', () => {
    expect(comparisonRange(r('2026-10-09', '2026-11-07'), 'previous')).toEqual(r('2026-09-09', '2026-10-08'));
    expect(comparisonRange(r('2026-11-23', '2026-11-23'), 'previous')).toEqual(r('2026-11-22', '2026-11-22'));
    // A single day, the first of a month too, is compared with the day before.
    expect(comparisonRange(r('2026-11-01', '2026-11-01'), 'previous')).toEqual(r('2026-10-31', '2026-10-31'));
  });

  it('compares with the same days a year earlier, or with nothing', () => {
    expect(comparisonRange(r('2024-02-01', '2024-02-29'), 'year')).toEqual(r('2023-02-01', '2023-02-28'));
    expect(comparisonRange(r('2026-11-01', '2026-11-23'), 'year')).toEqual(r('2025-11-01', '2025-11-23'));
    expect(comparisonRange(r('2026-11-01', '2026-11-23'), 'none')).toBeNull();
  });

  it('reads the mode from the URL in any letter case, previous period by default', () => {
    expect(readCompare({ Compare: 'year' })).toBe('year');
    expect(readCompare({ compare: 'none' })).toBe('none');
    expect(readCompare({ compare: 'bogus' })).toBe('previous');
    expect(readCompare({})).toBe('previous');
  });
});

describe('completePart', () => {
  it('leaves a range that ends before today alone', () => {
    const range = r('2026-10-01', '2026-10-31');
    expect(completePart(range, r('2026-09-01', '2026-09-30'), '2026-11-23')).toEqual({
      range,
      comparison: r('2026-09-01', '2026-09-30'),
    });
  });

  it('measures a range ending today without today, against as many days of the comparison', () => {
    expect(completePart(r('2026-11-17', '2026-11-23'), r('2026-11-10', '2026-11-16'), '2026-11-23')).toEqual({
      range: r('2026-11-17', '2026-11-22'),
      comparison: r('2026-11-10', '2026-11-15'),
    });
    expect(completePart(r('2026-11-01', '2026-11-23'), r('2026-10-01', '2026-10-23'), '2026-11-23')).toEqual({
      range: r('2026-11-01', '2026-11-22'),
      comparison: r('2026-10-01', '2026-10-22'),
    });
  });

  it('has nothing complete to compare for today alone', () => {
    expect(completePart(r('2026-11-23', '2026-11-23'), r('2026-11-22', '2026-11-22'), '2026-11-23')).toBeNull();
  });
});

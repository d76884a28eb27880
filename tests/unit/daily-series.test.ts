import { describe, expect, it } from 'vitest';
import { packDays, unpackDays } from '@/lib/dashboard/daily-series';
import type { DailyPoint } from '@/lib/reports';
import { metricsOf } from '@/lib/shared/money';
import { addDays } from '@/lib/query/dates';

const point = (day: string, revenueMicros: number, impressions: number, adRequests: number, clicks: number) => ({
  day,
  ...metricsOf({ revenueMicros, impressions, adRequests, clicks }),
});

describe('packed daily series', () => {
  it('gives back the same points, derived figures included, across a month and a year end', () => {
    const points: DailyPoint[] = [
      point('2025-12-30', 1_234_567, 1_000, 1_250, 7),
      point('2025-12-31', 0, 0, 0, 0),
      point('2026-01-01', 9_007_199_254_740_991, 3, 0, 1),
    ];
    const packed = packDays(points);
    expect(packed.firstDay).toBe('2025-12-30');
    expect(packed.sums.revenueMicros).toEqual([1_234_567, 0, 9_007_199_254_740_991]);
    expect(unpackDays(JSON.parse(JSON.stringify(packed)))).toEqual(points);
  });

  it('packs an empty series as no first day, and unpacks it as no points', () => {
    const packed = packDays([]);
    expect(packed).toEqual({
      firstDay: null,
      sums: { revenueMicros: [], impressions: [], adRequests: [], clicks: [] },
    });
    expect(unpackDays(packed)).toEqual([]);
  });

  it('is a fraction of the points as JSON', () => {
    const year = Array.from({ length: 365 }, (_, i) =>
      point(addDays('2026-01-01', i), 47_734_133_621 + i, 10_436_473 + i, 12_921_047 + i, 112_701 + i),
    );
    expect(unpackDays(packDays(year))).toEqual(year);
    expect(JSON.stringify(packDays(year)).length).toBeLessThan(JSON.stringify(year).length / 4);
  });
});

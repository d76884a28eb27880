import { daysFrom } from '@/lib/query/dates';
import type { DailyPoint } from '@/lib/reports';
import { metricsOf, NO_SUMS, type Sums } from '@/lib/shared/money';

/**
 * A run of consecutive days as the browser receives it: the first day, then each sum as one array, a day per
 * index. The derived figures (revenue in dollars, eCPM, fill rate) are worked out again in the browser by the
 * same formulas. A year of points as objects was 150 KB of every overview; this is a sixth of it.
 */
export interface PackedDays {
  firstDay: string | null;
  sums: { [K in keyof Sums]: number[] };
}

const SUM_KEYS = Object.keys(NO_SUMS) as (keyof Sums)[];

/** `points` must be consecutive days in order, as the daily report gives them. */
export function packDays(points: DailyPoint[]): PackedDays {
  const sums = Object.fromEntries(SUM_KEYS.map((key) => [key, points.map((p) => p[key])])) as PackedDays['sums'];
  return { firstDay: points[0]?.day ?? null, sums };
}

export function unpackDays({ firstDay, sums }: PackedDays): DailyPoint[] {
  if (firstDay === null) return [];
  const days = daysFrom(firstDay, sums.revenueMicros.length);
  return sums.revenueMicros.map((revenueMicros, i) => ({
    day: days[i],
    ...metricsOf({
      revenueMicros,
      impressions: sums.impressions[i],
      adRequests: sums.adRequests[i],
      clicks: sums.clicks[i],
    }),
  }));
}

/** An alert the daily chart marks: a revenue day that left its usual range (lib/alerts), in words. */
export interface ChartAlert {
  day: string;
  drop: boolean;
  message: string;
}

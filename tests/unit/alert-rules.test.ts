/**
 * When revenue is unusual (lib/alerts/rules.ts): a day against the median of the same weekday of the 8 weeks
 * before, with a band of k scaled MADs and floors, so that a real drop alerts and ordinary noise does not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeRevenue, median, REVENUE_BAND } from '@/lib/alerts/rules';

const usd = (n: number) => Math.round(n * 1_000_000);
const usual = [100, 104, 97, 101, 99, 103, 96, 102].map(usd);

describe('judging a day of revenue', () => {
  it('takes the median (the mean of the middle two for an even count)', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('calls a day at 40 % of its usual weekday a drop, and names the band it left', () => {
    const judged = judgeRevenue(usd(40), usual)!;
    expect(judged.kind).toBe('revenue.drop');
    expect(judged.expectedMicros).toBe(usd(100.5));
    // Width: the larger of 3 × 1.4826 × MAD ($2.50), $10 and 30 % of $100.50.
    expect(judged.lowMicros).toBe(usd(100.5 - 30.15));
    expect(judged.highMicros).toBe(usd(100.5 + 30.15));
  });

  it('calls a doubled day a spike, and an ordinary one nothing', () => {
    expect(judgeRevenue(usd(201), usual)!.kind).toBe('revenue.spike');
    expect(judgeRevenue(usd(75), usual)!.kind).toBeNull();
    expect(judgeRevenue(usd(125), usual)!.kind).toBeNull();
  });

  it('keeps a tiny site quiet: a change under $10 is no alert, whatever its share', () => {
    const tiny = [5, 5.2, 4.9, 5.1, 5, 5.05, 4.95, 5].map(usd);
    expect(judgeRevenue(0, tiny)!.kind).toBeNull();
    expect(judgeRevenue(usd(14.9), tiny)!.kind).toBeNull();
    expect(judgeRevenue(usd(15.1), tiny)!.kind).toBe('revenue.spike');
  });

  it('does not judge a site with fewer than 6 weeks of history', () => {
    expect(judgeRevenue(0, usual.slice(0, REVENUE_BAND.minHistory - 1))).toBeNull();
    expect(judgeRevenue(0, usual.slice(0, REVENUE_BAND.minHistory))!.kind).toBe('revenue.drop');
  });

  it('is not fooled by one odd week in the history', () => {
    const withOutage = [...usual.slice(0, 7), 0];
    expect(judgeRevenue(usd(100), withOutage)!.kind).toBeNull();
    expect(judgeRevenue(usd(40), withOutage)!.kind).toBe('revenue.drop');
  });
});

/** A seeded generator of normal noise (Box–Muller over a linear congruential sequence). */
function gaussian(seed: number) {
  let state = seed >>> 0 || 1;
  const uniform = () => ((state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) + 0.5) / 2 ** 32;
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** How often `judge` says something over `days` days of revenue around `base` with 10 % noise. */
function alarmRate(seed: number, base: number, actual: (noisy: () => number) => number, days = 2_000) {
  const noise = gaussian(seed);
  const noisy = () => usd(Math.max(0, base * (1 + 0.1 * noise())));
  let alarms = 0;
  for (let i = 0; i < days; i++) {
    const history = Array.from({ length: REVENUE_BAND.weeks }, noisy);
    if (judgeRevenue(actual(noisy), history)?.kind) alarms++;
  }
  return alarms / days;
}

describe('revenue with 10 % day-to-day noise, whatever its size and the seed', () => {
  const seeds = fc.integer({ min: 1, max: 2 ** 31 });
  const bases = fc.double({ min: 50, max: 50_000, noNaN: true });

  it('alerts on under 1.5 % of ordinary days (0.4 % expected)', () => {
    fc.assert(
      fc.property(seeds, bases, (seed, base) => {
        expect(alarmRate(seed, base, (noisy) => noisy())).toBeLessThanOrEqual(0.015);
      }),
      { numRuns: 50 },
    );
  });

  it('alerts on at least 97 % of days that lost 60 %', () => {
    fc.assert(
      fc.property(seeds, bases, (seed, base) => {
        expect(alarmRate(seed, base, () => usd(base * 0.4))).toBeGreaterThanOrEqual(0.97);
      }),
      { numRuns: 50 },
    );
  });
});

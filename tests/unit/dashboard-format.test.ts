import { describe, expect, it } from 'vitest';
import {
  formatCompact,
  formatDay,
  formatInt,
  formatPct,
  formatUsd,
  formatUsdCompact,
  relativeChange,
} from '@/lib/shared/format';

describe('formatUsd', () => {
  it('shows dollars with cents and thousands separators', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(5)).toBe('$5.00');
    expect(formatUsd(0.1)).toBe('$0.10');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(1234567.891)).toBe('$1,234,567.89');
    expect(formatUsd(987654321.004)).toBe('$987,654,321.00');
  });

  it('rounds to the cent', () => {
    expect(formatUsd(0.004)).toBe('$0.00');
    expect(formatUsd(0.006)).toBe('$0.01');
    expect(formatUsd(2.499)).toBe('$2.50');
    expect(formatUsd(999.999)).toBe('$1,000.00');
  });

  it('never shows a negative zero', () => {
    expect(formatUsd(-0)).toBe('$0.00');
    expect(formatUsd(-0.001)).toBe('$0.00');
  });
});

describe('compact axis labels', () => {
  it('formatUsdCompact: K, M, B with at most one decimal', () => {
    expect(formatUsdCompact(0)).toBe('$0');
    expect(formatUsdCompact(950)).toBe('$950');
    expect(formatUsdCompact(1000)).toBe('$1K');
    expect(formatUsdCompact(1234)).toBe('$1.2K');
    expect(formatUsdCompact(15_500)).toBe('$15.5K');
    expect(formatUsdCompact(1_500_000)).toBe('$1.5M');
    expect(formatUsdCompact(2_000_000_000)).toBe('$2B');
    expect(formatUsdCompact(12.34)).toBe('$12.3');
  });

  it('formatCompact: K and M with at most one decimal', () => {
    expect(formatCompact(0)).toBe('0');
    expect(formatCompact(999)).toBe('999');
    expect(formatCompact(12_345)).toBe('12.3K');
    expect(formatCompact(4_560_000)).toBe('4.6M');
  });
});

describe('formatInt', () => {
  it('rounds to whole numbers with thousands separators', () => {
    expect(formatInt(0)).toBe('0');
    expect(formatInt(999)).toBe('999');
    expect(formatInt(1000)).toBe('1,000');
    expect(formatInt(1234567.6)).toBe('1,234,568');
    expect(formatInt(9_007_199_254_740_991)).toBe('9,007,199,254,740,991');
  });
});

describe('formatPct', () => {
  it('shows a ratio as a percentage with exactly one decimal', () => {
    expect(formatPct(0)).toBe('0.0%');
    expect(formatPct(0.1234)).toBe('12.3%');
    expect(formatPct(0.1236)).toBe('12.4%');
    expect(formatPct(0.5)).toBe('50.0%');
    expect(formatPct(1)).toBe('100.0%');
    expect(formatPct(0.0004)).toBe('0.0%');
    expect(formatPct(12.345)).toBe('1,234.5%');
  });

  it('keeps the sign of a real change and drops the sign of a rounded-away one', () => {
    expect(formatPct(-0.25)).toBe('-25.0%');
    expect(formatPct(-0)).toBe('0.0%');
    expect(formatPct(-0.0001)).toBe('0.0%');
  });
});

describe('relativeChange', () => {
  it('is (current - previous) / previous', () => {
    expect(relativeChange(110, 100)).toBeCloseTo(0.1, 12);
    expect(relativeChange(50, 100)).toBe(-0.5);
    expect(relativeChange(100, 100)).toBe(0);
    expect(relativeChange(0, 100)).toBe(-1);
    expect(relativeChange(300, 100)).toBe(2);
  });

  it('handles a previous value of 0: no change from nothing to nothing, no ratio from nothing to something', () => {
    expect(relativeChange(0, 0)).toBe(0);
    expect(relativeChange(5, 0)).toBeNull();
    expect(relativeChange(0.000001, 0)).toBeNull();
  });
});

describe('formatDay', () => {
  it('names the UTC day whatever the process time zone', () => {
    const saved = process.env.TZ;
    try {
      for (const tz of ['UTC', 'Pacific/Honolulu', 'Pacific/Kiritimati']) {
        process.env.TZ = tz;
        expect(formatDay('2026-11-21'), tz).toBe('Nov 21, 2026');
        expect(formatDay('2026-01-01'), tz).toBe('Jan 1, 2026');
        expect(formatDay('2024-02-29', { month: 'long', day: 'numeric' }), tz).toBe('February 29');
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});

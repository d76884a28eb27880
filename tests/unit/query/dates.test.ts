import { describe, it, expect } from 'vitest';
import {
  collect,
  resolveRange,
  throwIfAny,
  todayUtc,
  addDays,
  daysBetweenInclusive,
  eachDay,
  isDay,
  MAX_RANGE_DAYS,
} from '@/lib/query';
import type { FieldError } from '@/lib/shared/errors';
import { daysFrom, FIRST_DAY, parseDay } from '@/lib/query/dates';
import { errorsOf, qp } from './helpers';

const today = '2026-03-15';
/** Reads the ends as the API does (lib/query/input.ts), then resolves the range for `today`. */
const parse = (query: string, defaultDays = 30) => {
  const q = qp(query);
  const errors: FieldError[] = [];
  const end = (parameter: 'fromDate' | 'toDate') => {
    const raw = q.get(parameter);
    return raw === undefined ? null : (collect(errors, () => parseDay(raw, parameter)) ?? null);
  };
  const given = { fromDate: end('fromDate'), toDate: end('toDate') };
  throwIfAny(errors);
  return resolveRange(given, { defaultDays, today });
};

describe('date helpers', () => {
  it('todayUtc uses the UTC calendar day', () => {
    expect(todayUtc(new Date('2026-03-15T23:59:59-05:00'))).toBe('2026-03-16');
    expect(todayUtc(new Date('2026-03-15T00:00:00Z'))).toBe('2026-03-15');
  });

  it('addDays crosses months, years and leap days', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2026-03-15', 0)).toBe('2026-03-15');
  });

  it('daysBetweenInclusive counts both ends', () => {
    expect(daysBetweenInclusive('2026-03-15', '2026-03-15')).toBe(1);
    expect(daysBetweenInclusive('2024-01-01', '2024-12-31')).toBe(366);
    expect(daysBetweenInclusive('2026-03-29', '2026-03-30')).toBe(2); // DST elsewhere never matters in UTC
  });

  it('eachDay lists the days inclusive', () => {
    expect(eachDay('2024-02-27', '2024-03-01')).toEqual(['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01']);
    expect(eachDay('2026-01-01', '2026-01-01')).toEqual(['2026-01-01']);
    expect(eachDay('2026-01-02', '2026-01-01')).toEqual([]);
  });

  it('isDay wants strict YYYY-MM-DD real dates', () => {
    expect(isDay('2024-02-29')).toBe(true);
    for (const bad of [
      '2026-02-29',
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '2026-1-01',
      '2026-01-01T00:00:00Z',
      '0099-01-01',
      '',
      ' 2026-01-01',
    ]) {
      expect(isDay(bad), bad).toBe(false);
    }
  });
});

describe('reading and resolving a range', () => {
  it('defaults to the last defaultDays days ending today', () => {
    expect(parse('')).toEqual({ fromDate: '2026-02-14', toDate: today });
    expect(daysBetweenInclusive('2026-02-14', today)).toBe(30);
    expect(parse('', 1)).toEqual({ fromDate: today, toDate: today });
  });

  it('counts back from a lone toDate', () => {
    expect(parse('toDate=2026-01-31')).toEqual({ fromDate: '2026-01-02', toDate: '2026-01-31' });
  });

  it('runs a lone fromDate to today', () => {
    expect(parse('fromDate=2025-01-01')).toEqual({ fromDate: '2025-01-01', toDate: today });
  });

  it('takes both ends as given, in any parameter casing, including future days', () => {
    expect(parse('FROMDATE=2026-01-01&todate=2026-12-31')).toEqual({ fromDate: '2026-01-01', toDate: '2026-12-31' });
  });

  it('rejects malformed and impossible dates, both at once', () => {
    const errors = errorsOf(() => parse('fromDate=2026-02-30&toDate=15.03.2026'));
    expect(errors).toEqual([
      { parameter: 'fromDate', detail: '"2026-02-30" is not a real calendar date' },
      { parameter: 'toDate', detail: 'must be a date in YYYY-MM-DD format (UTC), got "15.03.2026"' },
    ]);
    expect(errorsOf(() => parse('toDate='))[0].parameter).toBe('toDate');
  });

  it('rejects fromDate after toDate, naming fromDate', () => {
    expect(errorsOf(() => parse('fromDate=2026-02-02&toDate=2026-02-01'))).toEqual([
      { parameter: 'fromDate', detail: 'fromDate 2026-02-02 is after toDate 2026-02-01' },
    ]);
    expect(errorsOf(() => parse('fromDate=2026-04-01'))[0].detail).toBe(
      'fromDate 2026-04-01 is after toDate (defaulted to today, 2026-03-15)',
    );
  });

  it('allows exactly 731 days and rejects 732', () => {
    expect(MAX_RANGE_DAYS).toBe(731);
    expect(parse('fromDate=2024-03-15&toDate=2026-03-15')).toEqual({ fromDate: '2024-03-15', toDate: today });
    const errors = errorsOf(() => parse('fromDate=2024-03-14&toDate=2026-03-15'));
    expect(errors).toEqual([
      {
        parameter: 'fromDate',
        detail: 'fromDate 2024-03-14 to toDate 2026-03-15 spans 732 days (inclusive); at most 731 are allowed',
      },
    ]);
    expect(errorsOf(() => parse('fromDate=2020-01-01'))[0].detail).toContain('defaulted to today');
  });

  it('refuses a default range that would begin before year 1000, naming toDate, and takes one that does not', () => {
    expect(FIRST_DAY).toBe('1000-01-01');
    expect(errorsOf(() => parse('toDate=1000-01-01'))).toEqual([
      {
        parameter: 'toDate',
        detail:
          'toDate 1000-01-01 with the default range of 30 days would begin on 0999-12-03, before 1000-01-01, the first day a report can cover; give a fromDate too',
      },
    ]);
    expect(errorsOf(() => parse('toDate=1000-01-29'))[0].parameter).toBe('toDate');
    expect(parse('toDate=1000-01-30')).toEqual({ fromDate: FIRST_DAY, toDate: '1000-01-30' });
    expect(parse('fromDate=1000-01-01&toDate=1000-01-01')).toEqual({ fromDate: FIRST_DAY, toDate: FIRST_DAY });
    expect(parse('toDate=1000-01-01', 1)).toEqual({ fromDate: FIRST_DAY, toDate: FIRST_DAY });
  });

  it('refuses computed ends outside the days (a comparison period before year 1000)', () => {
    const resolve = (fromDate: string, toDate: string) => () =>
      resolveRange({ fromDate, toDate }, { defaultDays: 30, today });
    expect(errorsOf(resolve(addDays(FIRST_DAY, -10), addDays(FIRST_DAY, -1)))).toEqual([
      { parameter: 'fromDate', detail: 'fromDate 0999-12-22 is not a day from 1000-01-01 on' },
    ]);
    expect(errorsOf(resolve(FIRST_DAY, '0999-12-31'))).toEqual([
      { parameter: 'toDate', detail: 'toDate 0999-12-31 is not a day from 1000-01-01 on' },
    ]);
  });

  it('refuses a nonsensical defaultDays as a programming error', () => {
    expect(() => parse('', 0)).toThrow(RangeError);
    expect(() => parse('', 732)).toThrow(RangeError);
  });
});

describe('daysFrom (calendar counting, no Date per day)', () => {
  it('agrees with addDays day by day across month ends, leap days and century years', () => {
    for (const first of ['1999-12-25', '2000-02-27', '2100-02-27', '2024-02-28', '2026-01-31', '9999-12-01']) {
      const count = first.startsWith('9999') ? 31 : 800;
      const days = daysFrom(first, count);
      expect(days, first).toEqual(Array.from({ length: count }, (_, i) => addDays(first, i)));
      expect(days.every(isDay), first).toBe(true);
    }
  });

  it('gives nothing for no days, and eachDay nothing for a range the wrong way round or a wrong day', () => {
    expect(daysFrom('2026-03-15', 0)).toEqual([]);
    expect(eachDay('2026-03-15', '2026-03-14')).toEqual([]);
    expect(eachDay('2026-02-30', '2026-03-14')).toEqual([]);
    expect(eachDay('2026-02-27', '2026-03-01')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
  });
});

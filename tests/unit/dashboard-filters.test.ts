import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { periodBefore } from '@/lib/dashboard/comparison';
import { readSiteDay, readView, type SearchParams } from '@/lib/dashboard/url';
import { ValidationError } from '@/lib/shared/errors';
import { addDays, daysBetweenInclusive, MAX_RANGE_DAYS, QueryParams, readQuery, totalsQuery } from '@/lib/query';
import { byCountryQuery } from '@/lib/reports/field-sql';

const SITE_A = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const SITE_B = '9b2c1d7e-0a1b-4c2d-8e3f-a4b5c6d7e8f9';
const TODAY = '2026-03-15';

/** readSiteDay's answer when it must be the filter bar's input (fails the test with the error's detail otherwise). */
function siteDayOf(params: SearchParams) {
  const result = readSiteDay(params);
  if (result instanceof ValidationError)
    throw new Error(`unexpected ValidationError: ${JSON.stringify(result.errors)}`);
  return result;
}

/** readSiteDay's answer when it must be a 400: returned, never thrown. */
function errorOf(params: SearchParams): ValidationError {
  let result: ReturnType<typeof readSiteDay>;
  expect(() => (result = readSiteDay(params))).not.toThrow();
  expect(result!).toBeInstanceOf(ValidationError);
  expect((result! as ValidationError).code).toBe('invalid');
  return result! as ValidationError;
}

const none = { fromDate: null, toDate: null, siteIds: null };

describe('readSiteDay (the filter bar from the URL)', () => {
  // The range's ends are checked against today in UTC (a lone `from` runs to today).
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(`${TODAY}T12:00:00Z`));
  });
  afterEach(() => vi.useRealTimers());

  it('reads from, to and sites in any letter case, as the API reads its names', () => {
    expect(siteDayOf({ FROM: '2026-03-01', To: '2026-03-10' })).toEqual({
      ...none,
      fromDate: '2026-03-01',
      toDate: '2026-03-10',
    });
  });

  it('leaves the range open where the URL names none: the service resolves it from the account (reportScope)', () => {
    expect(siteDayOf({})).toEqual(none);
    expect(siteDayOf({ from: '2026-03-01' })).toEqual({ ...none, fromDate: '2026-03-01' });
    expect(siteDayOf({ to: '2026-01-31' })).toEqual({ ...none, toDate: '2026-01-31' });
  });

  it('accepts from, to and sites', () => {
    expect(siteDayOf({ from: '2025-12-01', to: '2026-01-31', sites: `${SITE_A},${SITE_B}` })).toEqual({
      fromDate: '2025-12-01',
      toDate: '2026-01-31',
      siteIds: [SITE_A, SITE_B],
    });
    expect(siteDayOf({ from: '2026-02-28', to: '2026-02-28' })).toEqual({
      ...none,
      fromDate: '2026-02-28',
      toDate: '2026-02-28',
    });
  });

  it('reads sites like the API reads siteIds: lower-cased, de-duplicated, spaces and empty items dropped', () => {
    expect(siteDayOf({ sites: ` ${SITE_A.toUpperCase()} ,,${SITE_B}, ${SITE_A}` }).siteIds).toEqual([SITE_A, SITE_B]);
    expect(siteDayOf({ sites: '' }).siteIds).toBeNull();
    expect(siteDayOf({ sites: ',' }).siteIds).toBeNull();
    // Repeated identical values (links built by appending) are harmless.
    expect(siteDayOf({ sites: [SITE_A, SITE_A] }).siteIds).toEqual([SITE_A]);
  });

  it('accepts a range of exactly 731 days and rejects 732', () => {
    expect(MAX_RANGE_DAYS).toBe(731);
    const from731 = addDays(TODAY, -(MAX_RANGE_DAYS - 1));
    expect(siteDayOf({ from: from731, to: TODAY })).toEqual({ ...none, fromDate: from731, toDate: TODAY });
    const err = errorOf({ from: addDays(from731, -1), to: TODAY });
    expect(err.errors).toEqual([{ parameter: 'fromDate', detail: expect.stringContaining('732 days') }]);
  });

  it.each([
    ['not a date', { from: 'yesterday' }, 'fromDate', /YYYY-MM-DD/],
    ['a day that does not exist', { from: '2026-02-30' }, 'fromDate', /not a real calendar date/],
    ['a bad end date', { to: '2026-13-01' }, 'toDate', /not a real calendar date/],
    ['an empty date', { to: '' }, 'toDate', /YYYY-MM-DD/],
    ['a timestamp instead of a day', { from: '2026-03-01T00:00:00Z' }, 'fromDate', /YYYY-MM-DD/],
    ['a year before 1000', { from: '0999-12-31' }, 'fromDate', /not a real calendar date/],
    ['from after to', { from: '2026-03-02', to: '2026-03-01' }, 'fromDate', /after toDate 2026-03-01/],
    [
      'from after the defaulted today',
      { from: '2026-03-16' },
      'fromDate',
      /after toDate \(defaulted to today, 2026-03-15\)/,
    ],
    ['a malformed site id', { sites: `${SITE_A},not-a-uuid` }, 'siteIds', /"not-a-uuid" is not a valid site id/],
    ['an SQL-looking site id', { sites: "' or 1=1 --" }, 'siteIds', /not a valid site id/],
    ['two different values for from', { from: ['2026-03-01', '2026-03-02'] }, 'fromDate', /more than once/],
  ] satisfies [string, SearchParams, string, RegExp][])(
    'returns a ValidationError for %s',
    (_, params, parameter, detail) => {
      const err = errorOf(params);
      expect(err.errors?.map((e) => e.parameter)).toContain(parameter);
      expect(err.errors?.find((e) => e.parameter === parameter)?.detail).toMatch(detail);
    },
  );

  it('reports every malformed site id at once, and both bad dates at once', () => {
    expect(errorOf({ sites: 'a,b,c' }).errors).toHaveLength(3);
    expect(errorOf({ from: 'x', to: 'y' }).errors?.map((e) => e.parameter)).toEqual(['fromDate', 'toDate']);
  });

  it("ignores parameters that are not the filter bar's own (the API's names among them)", () => {
    expect(
      siteDayOf({ fromDate: '2020-01-01', toDate: '2020-01-31', siteIds: 'junk', page: '3', utm_source: 'mail' }),
    ).toEqual(none);
  });

  it('gives what the API gives for the same values, errors included: it is the same schema', () => {
    const cases: SearchParams[] = [
      { from: '2024-02-29', to: '2024-03-01' },
      { from: '2023-02-29' },
      { from: '2026-03-01', to: '2026-02-28' },
      { to: '2026-03-15', sites: 'x' },
    ];
    for (const params of cases) {
      const api = (() => {
        try {
          return readQuery(
            totalsQuery,
            QueryParams.from({ fromDate: params.from, toDate: params.to, siteIds: params.sites }),
          );
        } catch (e) {
          return e;
        }
      })();
      const ours = readSiteDay(params);
      if (api instanceof ValidationError)
        expect((ours as ValidationError).errors, JSON.stringify(params)).toEqual(api.errors);
      else expect(ours, JSON.stringify(params)).toEqual(api);
    }
  });

  it('returns a ValidationError for a NUL character instead of passing it towards the database', () => {
    expect(errorOf({ sites: `${SITE_A}\0` }).errors?.[0]).toMatchObject({ parameter: 'siteIds', detail: /NUL/ });
  });
});

describe('periodBefore', () => {
  const prev = (from: string, to: string, sites: string[] | null = null) => {
    const p = periodBefore({ fromDate: from, toDate: to, siteIds: sites });
    return { from: p.fromDate, to: p.toDate, sites: p.siteIds };
  };

  it('is the period of equal length just before', () => {
    expect(prev('2026-03-01', '2026-03-31')).toEqual({ from: '2026-01-29', to: '2026-02-28', sites: null });
    expect(prev('2026-03-15', '2026-03-15')).toEqual({ from: '2026-03-14', to: '2026-03-14', sites: null });
    expect(prev('2026-03-09', '2026-03-15')).toEqual({ from: '2026-03-02', to: '2026-03-08', sites: null });
  });

  it('crosses month, year and leap-day boundaries', () => {
    expect(prev('2026-01-01', '2026-01-10')).toEqual({ from: '2025-12-22', to: '2025-12-31', sites: null });
    expect(prev('2026-01-01', '2026-01-01')).toEqual({ from: '2025-12-31', to: '2025-12-31', sites: null });
    expect(prev('2024-03-01', '2024-03-31')).toEqual({ from: '2024-01-30', to: '2024-02-29', sites: null });
    // Equal length, not "the same dates a year earlier": 365 days back from 2025 reach into leap 2024 by one day.
    expect(prev('2025-01-01', '2025-12-31')).toEqual({ from: '2024-01-02', to: '2024-12-31', sites: null });
    // 366 days of a leap year go back 366 days.
    expect(prev('2024-01-01', '2024-12-31')).toEqual({ from: '2022-12-31', to: '2023-12-31', sites: null });
  });

  it('keeps the sites', () => {
    expect(prev('2026-03-01', '2026-03-31', [SITE_A]).sites).toEqual([SITE_A]);
  });

  it('always has the same number of days and ends the day before, for every range length up to the maximum', () => {
    const starts = ['2024-02-29', '2025-12-31', '2026-01-01', '2026-03-01', '2026-10-25'];
    for (const from of starts) {
      for (const days of [1, 2, 7, 28, 29, 30, 31, 90, 365, 366, MAX_RANGE_DAYS]) {
        const to = addDays(from, days - 1);
        const p = prev(from, to);
        expect(daysBetweenInclusive(p.from, p.to), `${from}..${to}`).toBe(days);
        expect(p.to).toBe(addDays(from, -1));
      }
    }
  });
});

describe('readView (the Countries table from the URL)', () => {
  it("reads the by-country endpoint's parameters in any letter case into its typed input", () => {
    const view = readView(byCountryQuery, {
      PAGE: '2',
      pagesize: '25',
      SortBy: 'revenueamount',
      sortdirection: 'DESC',
      search: ' germ ',
      FILTER: 'impressions>100',
      'FilterList[country]': 'DE,FR',
      From: '2026-02-01',
      sites: SITE_A,
    });
    expect(view).toEqual({
      page: 2,
      pageSize: 25,
      sortBy: 'revenueAmount',
      sortDirection: 'desc',
      search: 'germ',
      filter: [
        [{ field: 'impressions', type: 'number', op: '>', value: 100 }],
        [
          { field: 'country', type: 'string', op: '==', value: 'DE' },
          { field: 'country', type: 'string', op: '==', value: 'FR' },
        ],
      ],
      fromDate: '2026-02-01',
      toDate: null,
      siteIds: [SITE_A],
    });
  });

  it("ignores unknown parameters and the API's own date and site names instead of failing", () => {
    const view = readView(byCountryQuery, {
      utm_source: 'newsletter',
      fromDate: '1999-01-01',
      ToDate: 'x',
      siteids: 'junk',
      apiKey: 'secret',
    });
    expect(view).toMatchObject({ fromDate: null, toDate: null, siteIds: null, page: 1, pageSize: 20, sortBy: null });
  });

  it('answers every mistake of the table at once, named as the API names them', () => {
    const err = readView(byCountryQuery, { page: '0', sortBy: 'nope', Filter: 'x', 'FilterList[bad]': '1' });
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors?.map((e) => e.parameter)).toEqual([
      'page',
      'sortBy',
      'Filter',
      'FilterList[bad]',
    ]);
  });

  it('keeps repeated values for the grammar to judge', () => {
    expect(readView(byCountryQuery, { page: ['1', '1'] })).not.toBeInstanceOf(ValidationError);
    expect(readView(byCountryQuery, { page: ['1', '2'] })).toBeInstanceOf(ValidationError);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { countriesQuery } from '@/lib/dashboard/countries';
import {
  DEFAULT_DAYS, type DashboardFilters, filterSearch, previousPeriod, readFilters, type SearchParams, toApiQuery,
} from '@/lib/dashboard/filters';
import { ValidationError } from '@/lib/http/problem';
import { addDays, daysBetweenInclusive, MAX_RANGE_DAYS, PAGED_PARAMS, parseDateRange, QueryParams } from '@/lib/query';

const SITE_A = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const SITE_B = '9b2c1d7e-0a1b-4c2d-8e3f-a4b5c6d7e8f9';
const TODAY = '2026-03-15';

/** readFilters' answer when it must be filters (fails the test with the error's detail otherwise). */
function filtersOf(params: SearchParams, today = TODAY): DashboardFilters {
  const result = readFilters(params, today);
  if (result instanceof ValidationError) throw new Error(`unexpected ValidationError: ${result.detail}`);
  return result;
}

/** readFilters' answer when it must be a 400: returned, never thrown. */
function errorOf(params: SearchParams, today = TODAY): ValidationError {
  let result: ReturnType<typeof readFilters>;
  expect(() => (result = readFilters(params, today))).not.toThrow();
  expect(result!).toBeInstanceOf(ValidationError);
  expect((result! as ValidationError).code).toBe('invalid');
  return result! as ValidationError;
}

describe('readFilters', () => {
  afterEach(() => vi.useRealTimers());

  it('reads from, to and sites in any letter case, as the API reads its names', () => {
    expect(readFilters({ FROM: '2026-03-01', To: '2026-03-10' }, TODAY)).toEqual({ from: '2026-03-01', to: '2026-03-10', sites: null });
  });

  it("defaults to the account's own default range, as the API does", () => {
    expect(readFilters({}, TODAY, 7)).toEqual({ from: '2026-03-09', to: TODAY, sites: null });
    expect(readFilters({}, TODAY, 731)).toMatchObject({ from: '2024-03-15', to: TODAY });
  });

  it('defaults to the last 30 days ending today (UTC, inclusive) over all sites', () => {
    expect(DEFAULT_DAYS).toBe(30);
    expect(filtersOf({})).toEqual({ from: '2026-02-14', to: TODAY, sites: null });
    expect(daysBetweenInclusive('2026-02-14', TODAY)).toBe(30);
    // Across a year boundary.
    expect(filtersOf({}, '2026-01-10')).toEqual({ from: '2025-12-12', to: '2026-01-10', sites: null });
  });

  it('takes "today" from the UTC clock when not given, not from the local time zone', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // 23:30 UTC on 2026-03-15 is already the 16th in Tokyo and still the 15th in Los Angeles; UTC decides.
    vi.setSystemTime(new Date('2026-03-15T23:30:00Z'));
    expect(readFilters({})).toEqual({ from: '2026-02-14', to: '2026-03-15', sites: null });
    vi.setSystemTime(new Date('2026-03-16T00:00:00Z'));
    expect(readFilters({})).toEqual({ from: '2026-02-15', to: '2026-03-16', sites: null });
  });

  it('accepts from, to and sites', () => {
    expect(filtersOf({ from: '2025-12-01', to: '2026-01-31', sites: `${SITE_A},${SITE_B}` })).toEqual({
      from: '2025-12-01',
      to: '2026-01-31',
      sites: [SITE_A, SITE_B],
    });
    // A single day.
    expect(filtersOf({ from: '2026-02-28', to: '2026-02-28' })).toEqual({ from: '2026-02-28', to: '2026-02-28', sites: null });
    // A lone `from` runs to today; a lone `to` gives 30 days ending there.
    expect(filtersOf({ from: '2026-03-01' })).toEqual({ from: '2026-03-01', to: TODAY, sites: null });
    expect(filtersOf({ to: '2026-01-31' })).toEqual({ from: '2026-01-02', to: '2026-01-31', sites: null });
  });

  it('reads sites like the API reads siteIds: lower-cased, de-duplicated, spaces and empty items dropped', () => {
    expect(filtersOf({ sites: ` ${SITE_A.toUpperCase()} ,,${SITE_B}, ${SITE_A}` }).sites).toEqual([SITE_A, SITE_B]);
    expect(filtersOf({ sites: '' }).sites).toBeNull();
    expect(filtersOf({ sites: ',' }).sites).toBeNull();
    // Repeated identical values (links built by appending) are harmless.
    expect(filtersOf({ sites: [SITE_A, SITE_A] }).sites).toEqual([SITE_A]);
  });

  it('accepts a range of exactly 731 days and rejects 732', () => {
    expect(MAX_RANGE_DAYS).toBe(731);
    const from731 = addDays(TODAY, -(MAX_RANGE_DAYS - 1));
    expect(filtersOf({ from: from731, to: TODAY })).toEqual({ from: from731, to: TODAY, sites: null });
    const err = errorOf({ from: addDays(from731, -1), to: TODAY });
    expect(err.errors).toEqual([{ parameter: 'fromDate', detail: expect.stringContaining('732 days') }]);
  });

  it.each([
    ['not a date', { from: 'yesterday' }, 'fromDate', /YYYY-MM-DD/],
    ['a day that does not exist', { from: '2026-02-30' }, 'fromDate', /not a real calendar date/],
    ['a bad end date', { to: '2026-13-01' }, 'toDate', /not a real calendar date/],
    ['an empty date', { to: '' }, 'toDate', /YYYY-MM-DD/],
    ['a timestamp instead of a day', { from: '2026-03-01T00:00:00Z' }, 'fromDate', /YYYY-MM-DD/],
    ['from after to', { from: '2026-03-02', to: '2026-03-01' }, 'fromDate', /after toDate 2026-03-01/],
    ['from after the defaulted today', { from: '2026-03-16' }, 'fromDate', /after toDate \(defaulted to today, 2026-03-15\)/],
    ['a malformed site id', { sites: `${SITE_A},not-a-uuid` }, 'siteIds', /"not-a-uuid" is not a valid site id/],
    ['an SQL-looking site id', { sites: "' or 1=1 --" }, 'siteIds', /not a valid site id/],
    ['two different values for from', { from: ['2026-03-01', '2026-03-02'] }, 'fromDate', /more than once/],
  ] satisfies [string, SearchParams, string, RegExp][])('returns a ValidationError for %s', (_, params, parameter, detail) => {
    const err = errorOf(params);
    expect(err.errors?.map((e) => e.parameter)).toContain(parameter);
    expect(err.errors?.find((e) => e.parameter === parameter)?.detail).toMatch(detail);
  });

  it('reports every malformed site id at once, and both bad dates at once', () => {
    expect(errorOf({ sites: 'a,b,c' }).errors).toHaveLength(3);
    expect(errorOf({ from: 'x', to: 'y' }).errors?.map((e) => e.parameter)).toEqual(['fromDate', 'toDate']);
  });

  it('ignores parameters that are not the filter bar\'s own (the API names among them)', () => {
    expect(filtersOf({ fromDate: '2020-01-01', toDate: '2020-01-31', siteIds: 'junk', page: '3', utm_source: 'mail' })).toEqual(
      filtersOf({}),
    );
  });

  it('accepts exactly what the API grammar accepts for the same values', () => {
    const cases: SearchParams[] = [
      { from: '2024-02-29', to: '2024-03-01' },
      { from: '2023-02-29' },
      { from: '2026-03-01', to: '2026-02-28' },
      { to: '2026-03-15' },
      { from: '0999-12-31' },
    ];
    for (const params of cases) {
      const ours = readFilters(params, TODAY);
      let api: unknown;
      try {
        api = parseDateRange(QueryParams.from({ fromDate: params.from, toDate: params.to }), { defaultDays: 30, today: TODAY });
      } catch (e) {
        api = e;
      }
      if (api instanceof ValidationError) {
        expect(ours, JSON.stringify(params)).toBeInstanceOf(ValidationError);
        expect((ours as ValidationError).errors).toEqual(api.errors);
      } else {
        const { fromDate, toDate } = api as { fromDate: string; toDate: string };
        expect(ours, JSON.stringify(params)).toEqual({ from: fromDate, to: toDate, sites: null });
      }
    }
  });

  it('returns a ValidationError for a NUL character instead of passing it towards the database', () => {
    expect(errorOf({ sites: `${SITE_A}\0` }).errors?.[0]).toMatchObject({ parameter: 'siteIds', detail: /NUL/ });
  });
});

describe('previousPeriod', () => {
  const prev = (from: string, to: string, sites: string[] | null = null) => previousPeriod({ from, to, sites });

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

describe('toApiQuery', () => {
  it('speaks the API grammar: fromDate, toDate and siteIds only when sites are chosen', () => {
    const all = toApiQuery({ from: '2026-03-01', to: '2026-03-31', sites: null });
    expect(all.get('fromDate')).toBe('2026-03-01');
    expect(all.get('toDate')).toBe('2026-03-31');
    expect(all.get('siteIds')).toBeUndefined();
    expect(() => all.assertOnly(['siteIds', 'fromDate', 'toDate'])).not.toThrow();

    const some = toApiQuery({ from: '2026-03-01', to: '2026-03-31', sites: [SITE_A, SITE_B] }, { pageSize: '10' });
    expect(some.get('siteids')).toBe(`${SITE_A},${SITE_B}`);
    expect(some.get('pageSize')).toBe('10');
  });
});

describe('filterSearch', () => {
  const roundTrip = (f: DashboardFilters) => readFilters(Object.fromEntries(new URLSearchParams(filterSearch(f))), TODAY);

  it('writes ?from=&to=&sites= and reads back to the same filters', () => {
    const all: DashboardFilters = { from: '2026-02-01', to: '2026-02-28', sites: null };
    expect(filterSearch(all)).toBe('?from=2026-02-01&to=2026-02-28');
    expect(roundTrip(all)).toEqual(all);

    const some: DashboardFilters = { from: '2025-12-20', to: '2026-01-05', sites: [SITE_B, SITE_A] };
    expect(new URLSearchParams(filterSearch(some)).get('sites')).toBe(`${SITE_B},${SITE_A}`);
    expect(roundTrip(some)).toEqual(some);

    // The defaults round-trip too, so a link from a page opened without parameters keeps its view.
    const defaults = filtersOf({});
    expect(roundTrip(defaults)).toEqual(defaults);
  });

  it('adds extra parameters, encoded', () => {
    const search = filterSearch({ from: '2026-02-01', to: '2026-02-28', sites: null }, { Search: 'a&b=c', sortBy: 'country' });
    const params = new URLSearchParams(search);
    expect(search.startsWith('?')).toBe(true);
    expect(params.get('Search')).toBe('a&b=c');
    expect(params.get('sortBy')).toBe('country');
    expect(params.get('from')).toBe('2026-02-01');
  });
});

describe('countriesQuery', () => {
  const FILTERS: DashboardFilters = { from: '2026-02-01', to: '2026-02-28', sites: [SITE_A] };
  const BY_COUNTRY_PARAMS = ['siteIds', 'fromDate', 'toDate', ...PAGED_PARAMS];

  it('passes the by-country grammar\'s parameters, case-insensitively, plus the mapped filters', () => {
    const q = countriesQuery(
      {
        PAGE: '2',
        pagesize: '25',
        SortBy: 'revenueAmount',
        sortdirection: 'desc',
        search: 'germ',
        FILTER: 'impressions>100',
        'FilterList[country]': 'DE,FR',
        'filterlist.revenueAmount': '1',
        from: 'ignored here: the filters decide',
      },
      FILTERS,
    );
    expect(q.get('page')).toBe('2');
    expect(q.get('pageSize')).toBe('25');
    expect(q.get('sortBy')).toBe('revenueAmount');
    expect(q.get('sortDirection')).toBe('desc');
    expect(q.get('Search')).toBe('germ');
    expect(q.get('Filter')).toBe('impressions>100');
    expect(q.filterListEntries()).toEqual([
      { key: 'country', value: 'DE,FR' },
      { key: 'revenueAmount', value: '1' },
    ]);
    expect(q.get('fromDate')).toBe('2026-02-01');
    expect(q.get('toDate')).toBe('2026-02-28');
    expect(q.get('siteIds')).toBe(SITE_A);
    // The endpoint itself would accept every parameter that was passed on.
    expect(() => q.assertOnly(BY_COUNTRY_PARAMS)).not.toThrow();
  });

  it('ignores unknown parameters and the API\'s own date/site names instead of failing', () => {
    const q = countriesQuery(
      { utm_source: 'newsletter', fromDate: '1999-01-01', ToDate: '1999-01-02', siteids: 'junk', apiKey: 'secret', from: 'x', to: 'y', sites: 'z' },
      { ...FILTERS, sites: null },
    );
    expect(() => q.assertOnly(BY_COUNTRY_PARAMS)).not.toThrow();
    expect(q.get('fromDate')).toBe('2026-02-01');
    expect(q.get('toDate')).toBe('2026-02-28');
    expect(q.get('siteIds')).toBeUndefined();
    expect(q.get('apiKey')).toBeUndefined();
    expect(q.get('utm_source')).toBeUndefined();
  });

  it('keeps repeated values for the grammar to judge', () => {
    expect(() => countriesQuery({ page: ['1', '1'] }, FILTERS)).not.toThrow();
    expect(() => countriesQuery({ page: ['1', '2'] }, FILTERS)).toThrow(ValidationError);
  });
});

import { describe, expect, it } from 'vitest';
import { hrefWith, listPage, queryStringOf, viewHref, withChanges } from '@/lib/dashboard/url';

describe('withChanges', () => {
  it('removes every letter-case spelling of a parameter it changes', () => {
    const params = withChanges('Page=3&PAGESIZE=50&from=2026-01-01', { page: null, pageSize: '1000' });
    expect([...params]).toEqual([
      ['from', '2026-01-01'],
      ['pageSize', '1000'],
    ]);
  });

  it('keeps what it does not touch, including repeated FilterList entries', () => {
    const params = withChanges('FilterList[country]=US&Search=de', { sortBy: 'cpm' });
    expect(params.toString()).toBe('FilterList%5Bcountry%5D=US&Search=de&sortBy=cpm');
  });
});

describe('hrefWith (every paging link)', () => {
  it('replaces a parameter given in another spelling: /countries?Page=3 links "Next" to page 4 alone', () => {
    const next = new URLSearchParams(hrefWith({ Page: '3', sortBy: 'cpm' }, { page: '4' }).slice(1));
    expect([...next]).toEqual([
      ['sortBy', 'cpm'],
      ['page', '4'],
    ]);
  });

  it('keeps repeated parameters and drops none it was not asked to', () => {
    expect(hrefWith({ 'FilterList[country]': ['US', 'DE'], PAGESIZE: '50' }, { pageSize: '100', page: '1' })).toBe(
      '?FilterList%5Bcountry%5D=US&FilterList%5Bcountry%5D=DE&pageSize=100&page=1',
    );
  });
});

describe('links to other views carry the filter bar in any spelling', () => {
  it('viewHref keeps from, to, sites, country and compare (written canonically) and nothing else of this view', () => {
    const here = new URLSearchParams('From=2026-01-01&TO=2026-01-31&page=3&sites=x&Filter=cpm>1&metric=cpm');
    expect(viewHref('/countries', here)).toBe('/countries?from=2026-01-01&to=2026-01-31&sites=x');
    const compared = new URLSearchParams('Compare=year&COUNTRY=DE&sortBy=name&from=2026-01-01');
    expect(viewHref('/sites', compared)).toBe('/sites?from=2026-01-01&country=DE&compare=year');
    expect(viewHref('/', compared, { country: null })).toBe('/?from=2026-01-01&compare=year');
    expect(viewHref('/', new URLSearchParams('page=3'))).toBe('/');
  });

  it('viewHref applies changes: "view revenue" of one site keeps the chosen dates', () => {
    expect(viewHref('/', { FROM: '2026-01-01', to: '2026-01-31', sites: 'a,b' }, { sites: 'c' })).toBe(
      '/?from=2026-01-01&to=2026-01-31&sites=c',
    );
    expect(viewHref('/', { from: '2026-01-01', sites: 'a' }, { sites: null })).toBe('/?from=2026-01-01');
  });

  it('queryStringOf keeps repeated parameters in order', () => {
    expect(queryStringOf({ 'FilterList[country]': ['US', 'DE'], page: '2', none: undefined })).toBe(
      'FilterList%5Bcountry%5D=US&FilterList%5Bcountry%5D=DE&page=2',
    );
  });
});

describe('listPage', () => {
  it('reads page and pageSize, with the offset and page count of the list', () => {
    expect(listPage({ page: '3', pageSize: '50' }, 120)).toEqual({
      page: 3,
      pageSize: 50,
      totalRows: 120,
      totalPages: 3,
      offset: 100,
    });
  });

  it('shows the first page of 20 for missing or hand-edited values, and an empty page past the end', () => {
    const first = { page: 1, pageSize: 20, totalRows: 45, totalPages: 3, offset: 0 };
    expect(listPage({}, 45)).toEqual(first);
    expect(listPage({ page: '0', pageSize: 'many' }, 45)).toEqual(first);
    expect(listPage({ page: '1.5', pageSize: '1001' }, 45)).toEqual(first);
    expect(listPage({ page: '9' }, 45)).toMatchObject({ page: 9, offset: 160, totalPages: 3 });
  });
});

import { describe, expect, it } from 'vitest';
import { carriedFilters, hrefWith, paramOf, withChanges } from '@/lib/dashboard/url';

describe('withChanges', () => {
  it('removes every letter-case spelling of a parameter it changes', () => {
    const params = withChanges('Page=3&PAGESIZE=50&from=2026-01-01', { page: null, pageSize: '1000' });
    expect([...params]).toEqual([['from', '2026-01-01'], ['pageSize', '1000']]);
  });

  it('keeps what it does not touch, including repeated FilterList entries', () => {
    const params = withChanges('FilterList[country]=US&Search=de', { sortBy: 'cpm' });
    expect(params.toString()).toBe('FilterList%5Bcountry%5D=US&Search=de&sortBy=cpm');
  });
});

describe('hrefWith (every paging link)', () => {
  it('replaces a parameter given in another spelling: /countries?Page=3 links "Next" to page 4 alone', () => {
    const next = new URLSearchParams(hrefWith({ Page: '3', sortBy: 'cpm' }, { page: '4' }).slice(1));
    expect([...next]).toEqual([['sortBy', 'cpm'], ['page', '4']]);
  });

  it('keeps repeated parameters and drops none it was not asked to', () => {
    expect(hrefWith({ 'FilterList[country]': ['US', 'DE'], PAGESIZE: '50' }, { pageSize: '100', page: '1' })).toBe(
      '?FilterList%5Bcountry%5D=US&FilterList%5Bcountry%5D=DE&pageSize=100&page=1',
    );
  });
});

describe('reading and carrying the filter bar in any spelling', () => {
  it('paramOf finds a parameter under any letter case, repeated ones as a list', () => {
    expect(paramOf({ FROM: '2026-01-01' }, 'from')).toBe('2026-01-01');
    expect(paramOf({ Sites: 'a', sites: 'b' }, 'sites')).toEqual(['a', 'b']);
    expect(paramOf({}, 'to')).toBeUndefined();
  });

  it('carriedFilters keeps from, to and sites (canonical names) and nothing else', () => {
    expect(carriedFilters('From=2026-01-01&TO=2026-01-31&page=3&sites=x')).toBe('?from=2026-01-01&to=2026-01-31&sites=x');
    expect(carriedFilters('page=3')).toBe('');
  });
});

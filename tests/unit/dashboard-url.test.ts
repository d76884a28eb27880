import { describe, expect, it } from 'vitest';
import { hrefWith, withChanges } from '@/lib/dashboard/url';

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

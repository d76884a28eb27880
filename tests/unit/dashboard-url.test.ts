import { describe, expect, it } from 'vitest';
import { withChanges } from '@/lib/dashboard/url';

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

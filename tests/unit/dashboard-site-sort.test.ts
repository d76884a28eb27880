import { describe, expect, it } from 'vitest';
import { SITE_SORTS, sortSiteRows, type SiteTableRow } from '@/lib/dashboard/sites';

const row = (name: string | null, figures: Partial<SiteTableRow> = {}): SiteTableRow => ({
  siteId: `id-${name ?? 'untitled'}`,
  name,
  url: null,
  status: 'live',
  revenue: 0,
  impressions: 0,
  cpm: 0,
  fillRate: 0,
  series: [],
  change: null,
  ...figures,
});

const names = (rows: SiteTableRow[]) => rows.map((r) => r.name);

describe('sortSiteRows (the Sites table, sorted on the server)', () => {
  const rows = [
    row('Bravo', { revenue: 5, cpm: 2, change: { current: 5, previous: 10 } }),
    row('alpha', { revenue: 9, cpm: 2, change: { current: 9, previous: 0 } }),
    row('Charlie', { revenue: 5, cpm: 1, change: { current: 5, previous: 4 } }),
    row(null, { revenue: 0, cpm: 3, change: { current: 0, previous: 0 } }),
  ];

  it('orders by the figure either way, equal figures by name, so page boundaries do not move', () => {
    expect(names(sortSiteRows(rows, 'revenue', true))).toEqual(['alpha', 'Bravo', 'Charlie', null]);
    expect(names(sortSiteRows(rows, 'revenue', false))).toEqual([null, 'Bravo', 'Charlie', 'alpha']);
    expect(names(sortSiteRows(rows, 'cpm', true))).toEqual([null, 'alpha', 'Bravo', 'Charlie']);
  });

  it('sorts names as people read them, the untitled first going up', () => {
    expect(names(sortSiteRows(rows, 'name', false))).toEqual([null, 'alpha', 'Bravo', 'Charlie']);
    expect(names(sortSiteRows(rows, 'name', true))).toEqual(['Charlie', 'Bravo', 'alpha', null]);
  });

  it('puts a new site (no revenue before) above every growth rate, and no change at zero', () => {
    expect(names(sortSiteRows(rows, 'change', true))).toEqual(['alpha', 'Charlie', null, 'Bravo']);
  });

  it('sorts by every column it offers without changing the rows it was given', () => {
    const before = structuredClone(rows);
    for (const sortBy of SITE_SORTS) {
      for (const descending of [true, false]) {
        const sorted = sortSiteRows(rows, sortBy, descending);
        expect(sorted.toSorted((a, b) => a.siteId.localeCompare(b.siteId))).toEqual(
          rows.toSorted((a, b) => a.siteId.localeCompare(b.siteId)),
        );
      }
    }
    expect(rows).toEqual(before);
  });
});

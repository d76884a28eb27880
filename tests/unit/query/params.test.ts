import { describe, it, expect } from 'vitest';
import { QueryParams } from '@/lib/query';
import { errorsOf, qp } from './helpers';

describe('QueryParams.from / get', () => {
  it('matches names case-insensitively', () => {
    for (const name of ['page', 'Page', 'PAGE', 'pAgE']) {
      expect(qp(`${name}=3`).get('page')).toBe('3');
      expect(qp('page=3').get(name)).toBe('3');
    }
  });

  it('returns undefined for absent names and keeps empty values', () => {
    const p = qp('page=&x=1');
    expect(p.get('pageSize')).toBeUndefined();
    expect(p.get('page')).toBe('');
  });

  it('accepts a Next.js searchParams record, including arrays and undefined', () => {
    const p = QueryParams.from({ PageSize: '50', sortBy: ['country', 'country'], missing: undefined });
    expect(p.get('pagesize')).toBe('50');
    expect(p.get('sortBy')).toBe('country');
    expect(p.get('missing')).toBeUndefined();
  });

  it('allows identical repeats in any casing', () => {
    expect(qp('page=2&PAGE=2&Page=2').get('page')).toBe('2');
  });

  it('rejects a name repeated with different values, naming it canonically', () => {
    const errors = errorsOf(() => qp('PAGE=1&page=2'));
    expect(errors).toHaveLength(1);
    expect(errors[0].parameter).toBe('page');
    expect(errors[0].detail).toContain('given more than once');
    expect(errors[0].detail).toContain('"1" and "2"');
  });

  it('reports every conflicting name once, also from a record with arrays', () => {
    const errors = errorsOf(() => QueryParams.from({ pagesize: ['1', '2', '3'], SortBy: 'a', sortby: 'b' }));
    expect(errors.map((e) => e.parameter)).toEqual(['pageSize', 'sortBy']);
  });

  it('keeps an unknown name as given when reporting a conflict', () => {
    expect(errorsOf(() => qp('Foo=1&foo=2'))[0].parameter).toBe('Foo');
  });
});

describe('FilterList entries', () => {
  it('reads bracket and dot forms with a case-insensitive prefix', () => {
    const p = qp('FilterList[country]=US,DE&filterlist.gameName=a&FILTERLIST[Status]=live');
    expect(p.filterListEntries()).toEqual([
      { key: 'country', value: 'US,DE' },
      { key: 'gameName', value: 'a' },
      { key: 'Status', value: 'live' },
    ]);
    expect(p.get('FilterList')).toBeUndefined();
  });

  it('returns no entries when none are given', () => {
    expect(qp('page=1').filterListEntries()).toEqual([]);
  });

  it('treats the same field in another casing as the same entry', () => {
    expect(qp('FilterList[country]=US&FilterList.COUNTRY=US').filterListEntries()).toHaveLength(1);
    const errors = errorsOf(() => qp('FilterList[country]=US&FilterList.COUNTRY=DE'));
    expect(errors[0].parameter).toBe('FilterList[country]');
    expect(errors[0].detail).toContain('given more than once');
  });

  it('rejects entries without a field when they are read', () => {
    for (const name of ['FilterList', 'FilterList[]', 'filterlist.', 'FilterList[a', 'FilterList[a][b]']) {
      const p = QueryParams.from({ [name]: 'x' });
      const errors = errorsOf(() => p.filterListEntries());
      expect(errors[0].parameter).toBe('FilterList');
      expect(errors[0].detail).toContain('names no field');
    }
  });

  it('does not mistake other names that start with FilterList', () => {
    const p = qp('FilterListX=1');
    expect(p.filterListEntries()).toEqual([]);
    expect(p.get('filterlistx')).toBe('1');
  });
});

describe('assertOnly', () => {
  const PAGED = ['page', 'pageSize', 'sortBy', 'sortDirection', 'Search', 'Filter', 'FilterList'];

  it('passes when every name is allowed, in any casing', () => {
    expect(() => qp('PAGE=1&pagesize=2&SORTBY=x&filter=a==1&FilterList[a]=1&search=x').assertOnly(PAGED)).not.toThrow();
    expect(() => qp('').assertOnly([])).not.toThrow();
  });

  it('rejects each unknown name and lists what the endpoint accepts', () => {
    const errors = errorsOf(() => qp('page=1&foo=1&Bar=2').assertOnly(['page', 'pageSize']));
    expect(errors.map((e) => e.parameter)).toEqual(['foo', 'Bar']);
    expect(errors[0].detail).toBe('unknown query parameter "foo"; this endpoint accepts: page, pageSize');
  });

  it('says when an endpoint takes no parameters at all', () => {
    const errors = errorsOf(() => qp('page=1').assertOnly([]));
    expect(errors[0].detail).toBe('unknown query parameter "page"; this endpoint takes no query parameters');
  });

  it('counts FilterList entries, well-formed or not, as FilterList', () => {
    expect(errorsOf(() => qp('FilterList[country]=US').assertOnly(['page']))[0]).toEqual({
      parameter: 'FilterList',
      detail: 'unknown query parameter "FilterList[country]"; this endpoint accepts: page',
    });
    expect(errorsOf(() => qp('FilterList=US').assertOnly(['page']))[0].parameter).toBe('FilterList');
    expect(() => qp('FilterList=US').assertOnly(['FilterList'])).not.toThrow();
  });

  it('suggests Filter for siteIds, fromDate and toDate where Filter is accepted', () => {
    const errors = errorsOf(() => qp('SITEIDS=x&fromdate=2026-01-01&toDate=2026-01-31').assertOnly(PAGED));
    expect(errors.map((e) => e.parameter)).toEqual(['siteIds', 'fromDate', 'toDate']);
    expect(errors[0].detail).toContain('use Filter instead, e.g. Filter=gameId==<id>');
    expect(errors[1].detail).toContain('Filter=createdAt>=2026-01-01');
    expect(errors[2].detail).toContain('Filter=createdAt<=');
  });

  it('does not suggest Filter where the endpoint has none', () => {
    const errors = errorsOf(() => qp('siteIds=x').assertOnly([]));
    expect(errors[0].detail).not.toContain('Filter');
  });

  it('points apiKey at the headers', () => {
    const errors = errorsOf(() => qp('apikey=rpk_x').assertOnly(PAGED));
    expect(errors[0].parameter).toBe('apiKey');
    expect(errors[0].detail).toContain('X-Api-Key');
    expect(errors[0].detail).toContain('Authorization: Bearer');
    expect(() => qp('apiKey=rpk_x').assertOnly([...PAGED, 'apiKey'])).not.toThrow();
  });
});

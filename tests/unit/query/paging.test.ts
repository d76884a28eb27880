import { describe, it, expect } from 'vitest';
import { pageMeta, pageOffset, PAGE_SIZE_MAX, DEFAULT_PAGE_SIZE, type FieldDef } from '@/lib/query';
import { errorsOf, readPaged } from './helpers';

const fields: FieldDef[] = [
  { name: 'country', type: 'string' },
  { name: 'revenueAmount', type: 'number' },
];
const parse = (query: string) => {
  const { page, pageSize, sortBy, sortDirection } = readPaged(query, fields);
  return { page, pageSize, sortBy, sortDirection };
};

describe('paging', () => {
  it('defaults to page 1, pageSize 20, no sort, asc', () => {
    expect(DEFAULT_PAGE_SIZE).toBe(20);
    expect(PAGE_SIZE_MAX).toBe(1000);
    expect(parse('')).toEqual({ page: 1, pageSize: 20, sortBy: null, sortDirection: 'asc' });
  });

  it('reads every parameter in any casing and echoes sortBy canonically', () => {
    expect(parse('PAGE=3&PageSize=1000&SORTBY=REVENUEAMOUNT&sortdirection=DESC')).toEqual({
      page: 3,
      pageSize: 1000,
      sortBy: 'revenueAmount',
      sortDirection: 'desc',
    });
    expect(parse('sortDirection=Asc').sortDirection).toBe('asc');
  });

  it('accepts the bounds', () => {
    expect(parse(`page=${2 ** 31 - 1}&pageSize=1`)).toMatchObject({ page: 2 ** 31 - 1, pageSize: 1 });
    expect(parse('page=01').page).toBe(1);
  });

  it.each(['0', '-1', '1.5', '', 'abc', '1e3', '+2', ' 2', '0x10', String(2 ** 31)])('rejects page=%j', (v) => {
    const errors = errorsOf(() => parse(`page=${encodeURIComponent(v)}`));
    expect(errors).toEqual([
      { parameter: 'page', detail: `must be an integer between 1 and ${2 ** 31 - 1}, got ${JSON.stringify(v)}` },
    ]);
  });

  it.each(['0', '1001', '-5', '2.0', '', 'ten', '1e3'])('rejects pageSize=%j', (v) => {
    const errors = errorsOf(() => parse(`pageSize=${encodeURIComponent(v)}`));
    expect(errors).toEqual([
      { parameter: 'pageSize', detail: `must be an integer between 1 and 1000, got ${JSON.stringify(v)}` },
    ]);
  });

  it('reports every bad parameter at once', () => {
    const errors = errorsOf(() => parse('page=abc&pageSize=0&sortBy=foo&sortDirection=up'));
    expect(errors.map((e) => e.parameter)).toEqual(['page', 'pageSize', 'sortBy', 'sortDirection']);
    expect(errors[2].detail).toBe('unknown field "foo"; allowed: country, revenueAmount');
    expect(errors[3].detail).toBe('must be "asc" or "desc", got "up"');
  });

  it('rejects an empty sortBy or sortDirection', () => {
    expect(errorsOf(() => parse('sortBy='))[0].parameter).toBe('sortBy');
    expect(errorsOf(() => parse('sortDirection='))[0].parameter).toBe('sortDirection');
  });
});

describe('pageMeta / pageOffset', () => {
  const paging = { page: 2, pageSize: 20, sortBy: 'country', sortDirection: 'desc' as const };

  it('computes totalPages by rounding up', () => {
    expect(pageMeta(paging, 41)).toEqual({ ...paging, totalRows: 41, totalPages: 3 });
    expect(pageMeta(paging, 40).totalPages).toBe(2);
    expect(pageMeta(paging, 1).totalPages).toBe(1);
  });

  it('gives 0 pages for no rows', () => {
    expect(pageMeta(paging, 0)).toMatchObject({ totalRows: 0, totalPages: 0 });
  });

  it('computes the offset', () => {
    expect(pageOffset(paging)).toBe(20);
    expect(pageOffset({ ...paging, page: 1 })).toBe(0);
  });
});

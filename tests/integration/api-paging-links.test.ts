import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResult, get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { demoKey } from '../support/keys';
import { shiftDay } from './reports-helpers';

// Issue 20: RFC 8288 Link headers (first, prev, next, last) on paged answers, matching `meta`, keeping every
// other query parameter as sent and never an apiKey.
const t = useTestDatabase();
const BY_COUNTRY = '/api/v1/reports/by-country';
const ROWS = '/api/v1/reports/countries';
const LEGACY = '/api/v1/revenues/countries';
let key: string;

beforeAll(async () => {
  key = (await demoKey()).raw;
});

/** The Link header's targets by relation type; throws on a relation given twice. */
function linksOf(res: ApiResult): Record<string, string> {
  const links: Record<string, string> = {};
  for (const [, target, rel] of (res.headers.get('link') ?? '').matchAll(/<([^>]*)>;\s*rel="([^"]+)"/g)) {
    expect(links[rel], `rel="${rel}" twice`).toBeUndefined();
    links[rel] = target;
  }
  return links;
}

const pageOf = (target: string) => Number(new URL(target, 'http://localhost').searchParams.get('page'));

describe('Link headers on paged answers', () => {
  it('page 1 of several: first, next and last, no prev; every other parameter kept exactly as sent', async () => {
    const sent = 'sortBy=revenueAmount&sortDirection=desc&Filter=impressions%3E%3D0&pageSize=3';
    const res = await get(`${BY_COUNTRY}?${sent}`, { key });
    expect(res.status, res.text).toBe(200);
    const { totalPages } = res.json.meta;
    expect(totalPages).toBeGreaterThan(2);
    const links = linksOf(res);
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next']);
    expect(links.first).toBe(`${BY_COUNTRY}?${sent}&page=1`);
    expect(links.next).toBe(`${BY_COUNTRY}?${sent}&page=2`);
    expect(links.last).toBe(`${BY_COUNTRY}?${sent}&page=${totalPages}`);
  });

  it('a middle page has all four; the last page no next; following them lands where meta says', async () => {
    const first = await get(`${BY_COUNTRY}?pageSize=3&Page=2`, { key });
    const { totalPages } = first.json.meta;
    const links = linksOf(first);
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next', 'prev']);
    // `Page` in any letter case is the page: replaced, not repeated.
    expect(links.prev).toBe(`${BY_COUNTRY}?pageSize=3&page=1`);
    expect(links.next).toBe(`${BY_COUNTRY}?pageSize=3&page=3`);
    const last = await get(links.last, { key });
    expect(last.json.meta).toMatchObject({ page: totalPages, totalPages });
    const lastLinks = linksOf(last);
    expect(Object.keys(lastLinks).sort()).toEqual(['first', 'last', 'prev']);
    expect(pageOf(lastLinks.prev)).toBe(totalPages - 1);
    expect(lastLinks.last).toBe(links.last);
  });

  it('walking next from first visits every page of the rows once, in order', async () => {
    const filter = `FilterList.country=US,CA,GB&Filter=createdAt%3E%3D${shiftDay(t.today, -3)}`;
    const probe = await get(`${ROWS}?${filter}&pageSize=10`, { key });
    const { totalPages, totalRows } = probe.json.meta;
    expect(totalPages).toBeGreaterThanOrEqual(3);
    let target: string | undefined = linksOf(probe).first;
    const pages: number[] = [];
    let rows = 0;
    while (target) {
      const res = await get(target, { key });
      expect(res.status, res.text).toBe(200);
      pages.push(res.json.meta.page);
      rows += res.json.data.length;
      target = linksOf(res).next;
    }
    expect(pages).toEqual(Array.from({ length: totalPages }, (_, i) => i + 1));
    expect(rows).toBe(totalRows);
  });

  it('an empty answer has one page: first and last are page 1, no prev or next', async () => {
    const res = await get(`${BY_COUNTRY}?Search=no-country-has-this-name`, { key });
    expect(res.json.meta).toMatchObject({ page: 1, totalRows: 0, totalPages: 0 });
    expect(linksOf(res)).toEqual({
      first: `${BY_COUNTRY}?Search=no-country-has-this-name&page=1`,
      last: `${BY_COUNTRY}?Search=no-country-has-this-name&page=1`,
    });
  });

  it('a page past the end links back to the last page', async () => {
    const res = await get(`${BY_COUNTRY}?pageSize=100&page=50`, { key });
    expect(res.json.meta.totalPages).toBe(1);
    expect(linksOf(res)).toEqual({
      first: `${BY_COUNTRY}?pageSize=100&page=1`,
      prev: `${BY_COUNTRY}?pageSize=100&page=1`,
      last: `${BY_COUNTRY}?pageSize=100&page=1`,
    });
  });

  it('CSV pages carry the same links as JSON', async () => {
    const path = `${BY_COUNTRY}?pageSize=5&page=2`;
    const json = await get(path, { key });
    const csv = await get(path, { key, headers: { Accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('link')).toBe(json.headers.get('link'));
    expect(Object.keys(linksOf(csv)).sort()).toEqual(['first', 'last', 'next', 'prev']);
  });

  it('the legacy feed keeps its successor link first and never puts the apiKey into a link', async () => {
    for (const keyParam of ['apiKey', 'APIKEY', 'apikey']) {
      const res = await get(`${LEGACY}?${keyParam}=${key}&pageSize=2&page=2&sortBy=gameName`);
      expect(res.status, res.text).toBe(200);
      const header = res.headers.get('link')!;
      expect(header).not.toContain(key);
      expect(header.toLowerCase()).not.toContain('apikey');
      expect(header.startsWith('</api/v1/reports/countries>; rel="successor-version", ')).toBe(true);
      const links = linksOf(res);
      expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next', 'prev', 'successor-version']);
      expect(links.next).toBe(`${LEGACY}?pageSize=2&sortBy=gameName&page=3`);
      // A link is followed with the key in a header.
      const next = await get(links.next, { key });
      expect(next.json.meta.page).toBe(3);
    }
  });

  it('unpaged answers and errors carry no paging links', async () => {
    expect((await get('/api/v1/sites', { key })).headers.get('link')).toBeNull();
    expect((await get('/api/v1/reports/totals', { key })).headers.get('link')).toBeNull();
    expect((await get(`${BY_COUNTRY}?pageSize=0`, { key })).headers.get('link')).toBeNull();
  });
});

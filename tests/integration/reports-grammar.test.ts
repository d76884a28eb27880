/**
 * The query grammar as every report endpoint applies it: parameter-name case, unknown and repeated
 * parameters, and a table of hostile inputs none of which may produce a 5xx.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { MAX_FILTER_TERMS } from '@/lib/query';
import { get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { demoKey } from '../support/keys';
import { DEMO_SITE_IDS, expectProblem, q, shiftDay } from './reports-helpers';

const t = useTestDatabase();
const ENDPOINTS = [
  '/api/v1/reports/totals',
  '/api/v1/reports/by-country',
  '/api/v1/reports/countries',
  '/api/v1/revenues/countries',
];
const PAGED = ENDPOINTS.slice(1);
let key: string;
const freshKey = async () => (key = (await demoKey()).raw);

beforeAll(freshKey);

/** Legacy endpoint calls carry the key in the query, the others in the header. */
function call(path: string, query: string) {
  if (path.startsWith('/api/v1/revenues'))
    return get(`${path}?${query}${query ? '&' : ''}apiKey=${encodeURIComponent(key)}`);
  return get(`${path}?${query}`, { key });
}

describe('parameter names', () => {
  it('are case-insensitive on the rows endpoints too', async () => {
    const filter = `createdAt>=${shiftDay(t.today, -2)}`;
    for (const path of PAGED.slice(1)) {
      const canonical = await call(
        path,
        `page=2&pageSize=9&sortBy=cpm&sortDirection=desc&${q({ Filter: filter, Search: 'o', 'FilterList[country]': 'US,FR' })}`,
      );
      const odd = await call(
        path,
        `PAGE=2&PageSize=9&SORTBY=CPM&SortDirection=DESC&${q({ FILTER: filter, search: 'o', 'filterLIST[Country]': 'US,FR' })}`,
      );
      expect(canonical.status, canonical.text).toBe(200);
      expect(canonical.json.data).toHaveLength(9);
      expect(canonical.json.meta).toMatchObject({ page: 2, pageSize: 9, sortBy: 'cpm', sortDirection: 'desc' });
      expect(odd.json).toEqual(canonical.json);
    }
  });

  it('reject unknown parameters with 400 naming them, on every endpoint', async () => {
    for (const path of ENDPOINTS) {
      for (const name of ['pagesize2', 'sort', 'x']) {
        expectProblem(await call(path, `${name}=1`), 400, name);
      }
    }
  });

  it('reject a parameter repeated with different values, in any spelling; identical repeats are fine', async () => {
    for (const path of PAGED) {
      expectProblem(await call(path, 'page=1&page=2'), 400, 'page');
      expectProblem(await call(path, 'pageSize=5&PAGESIZE=6'), 400, 'pageSize');
      expectProblem(await call(path, 'FilterList[country]=US&FilterList.country=DE'), 400, /^FilterList/);
      expect((await call(path, 'pageSize=5&PageSize=5')).json.meta.pageSize).toBe(5);
    }
    expectProblem(await call(ENDPOINTS[0], `siteIds=${DEMO_SITE_IDS[0]}&SiteIds=${DEMO_SITE_IDS[1]}`), 400, 'siteIds');
  });

  it('accept siteIds as a comma list with spaces and sortDirection in any case', async () => {
    const [a, b] = [DEMO_IDS.sites.skyHopper, DEMO_IDS.sites.mergeKingdom];
    const spaced = await call(
      ENDPOINTS[1],
      `siteIds=${encodeURIComponent(` ${a} ,  ${b},`)}&sortDirection=DeSc&pageSize=3`,
    );
    const plain = await call(ENDPOINTS[1], `siteIds=${b},${a}&sortDirection=desc&pageSize=3`);
    expect(spaced.status, spaced.text).toBe(200);
    expect(spaced.json).toEqual(plain.json);
    expect(spaced.json.meta.sortDirection).toBe('desc');
  });

  it('name the parameter and the position of a malformed filter', async () => {
    const body = expectProblem(await call(ENDPOINTS[2], q({ Filter: 'country==US;gameName=x' })), 400, 'Filter');
    expect(body.detail).toMatch(/position 20\b/); // the lone '=' after gameName
  });

  it('come back all at once in one 400, before any scope check', async () => {
    const names = (body: any) => body.errors.map((e: any) => e.parameter).sort();
    const all = expectProblem(
      await call(
        ENDPOINTS[1],
        q({
          page: 0,
          pageSize: 5000,
          sortBy: 'nope',
          sortDirection: 'up',
          Filter: 'x',
          Search: 'x'.repeat(201),
          siteIds: `${DEMO_IDS.sites.bubblePop},bad`,
          fromDate: '2026-1-1',
          toDate: '2026-02-30',
        }),
      ),
      400,
    );
    expect(names(all)).toEqual([
      'Filter',
      'Search',
      'fromDate',
      'page',
      'pageSize',
      'siteIds',
      'sortBy',
      'sortDirection',
      'toDate',
    ]);
    const totals = expectProblem(
      await call(ENDPOINTS[0], `siteIds=${DEMO_IDS.sites.bubblePop}&fromDate=2026-03-02&toDate=2026-03-01`),
      400,
    );
    expect(names(totals)).toEqual(['fromDate']);
    const rowsProblem = expectProblem(
      await call(ENDPOINTS[2], q({ page: 'one', Filter: 'gameId==1', 'FilterList[x]': '1' })),
      400,
    );
    expect(names(rowsProblem)).toEqual(['Filter', 'FilterList[x]', 'page']);
  });
});

const LONG = 'x'.repeat(20_000);
const uuids = (n: number) =>
  Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`).join(',');

/** Hostile inputs: each must be answered 200 or with a 4xx problem, never a 5xx. */
const HOSTILE: Record<string, string>[] = [
  { page: '2147483647' },
  { page: '2147483648' },
  { page: '99999999999' },
  { page: '-1' },
  { page: '0' },
  { page: '1.5' },
  { page: '1e3' },
  { page: '0x10' },
  { page: ' 1' },
  { page: '' },
  { page: '١' },
  { pageSize: '0' },
  { pageSize: '-1' },
  { pageSize: '1.5' },
  { pageSize: '1e3' },
  { pageSize: '1000' },
  { pageSize: '1001' },
  { page: '2147483647', pageSize: '1000' },
  { page: '9007199254740993' },
  { sortBy: 'country;drop table users' },
  { sortBy: 'country desc' },
  { sortBy: '"country"' },
  { sortBy: 'constructor' },
  { sortBy: '__proto__' },
  { sortBy: 'toString' },
  { sortBy: LONG },
  { sortDirection: 'desc; drop table x' },
  { Filter: "country=='; drop table users; --" },
  { Filter: 'country=="US"' },
  { Filter: "country=='US'" },
  { Filter: 'gameName==\\' },
  { Filter: 'gameName==a\\\\b' },
  { Filter: 'gameName==\\\\\\;\\,' },
  { Filter: 'gameName=@ünïcödé 🎮 \u202e' },
  { Filter: 'country==\u0130' },
  { Filter: `gameName==${LONG}` },
  { Filter: `gameName=@${LONG},country==US` },
  { Filter: Array(300).fill('country==US').join(',') },
  { Filter: ';;;' },
  { Filter: ',' },
  { Filter: '==' },
  { Filter: 'impressions>1e999' },
  { Filter: 'impressions>-1e999' },
  { Filter: 'impressions>1e308' },
  { Filter: 'impressions>123456789012345678901234567890' },
  { Filter: 'impressions>1e-400' },
  { Filter: 'impressions>NaN' },
  { Filter: 'impressions>Infinity' },
  { Filter: 'cpm<=.5' },
  { Filter: 'fillRate>=+1.' },
  { Filter: 'createdAt>=2026-02-29' },
  { Filter: 'createdAt>=0999-12-31' },
  { Filter: 'createdAt<=9999-12-31' },
  { Filter: 'updatedAt>=2026-01-01T00:00:00Z' },
  { Filter: 'gameId==00000000-0000-0000-0000-000000000000' },
  { Filter: 'gameId=@abc' },
  { Filter: 'userId>x' },
  { Filter: 'country>=' },
  { Filter: '%27%22%3B' },
  { Filter: 'constructor==1' },
  { Filter: '__proto__==1' },
  { Filter: 'revenueAmount>1000' },
  { Filter: '   ' },
  { Search: '%' },
  { Search: '_' },
  { Search: "'" },
  { Search: '"; drop table users; --' },
  { Search: '\\' },
  { Search: '%_%' },
  { Search: LONG },
  { Search: '🎮' },
  { Search: '   ' },
  { Search: 'ÅLAND' },
  { 'FilterList[country]': "US,'DE'" },
  { 'FilterList[country]': ',,,' },
  { 'FilterList[country]': '\\' },
  { 'FilterList[impressions]': '1,2,x' },
  { 'FilterList[__proto__]': '1' },
  { 'FilterList[]': 'US' },
  { 'FilterList[country][x]': 'US' },
  { 'FilterList.a.b': '1' },
  { FilterList: 'US' },
  { 'FilterList[createdAt]': '2026-01-01,2026-02-30' },
  { 'FilterList[gameId]': uuids(300) },
  { siteIds: 'not-a-uuid' },
  { siteIds: ',,,' },
  { siteIds: uuids(2000) },
  { siteIds: `${DEMO_SITE_IDS[0]};drop` },
  { siteIds: DEMO_SITE_IDS.map((s) => s.toUpperCase()).join(',') },
  { siteIds: Array(500).fill(DEMO_SITE_IDS[0]).join(',') },
  { fromDate: '2026-02-30' },
  { fromDate: '2026-1-1' },
  { fromDate: '0000-01-01' },
  { fromDate: '+02026-01-01' },
  { fromDate: '2026-01-01T00:00:00Z' },
  { toDate: '9999-12-31' },
  { fromDate: '9999-12-31' },
  { fromDate: '1000-01-01' },
  { fromDate: '2000-01-01', toDate: '2026-01-01' },
  { fromDate: LONG },
  { [LONG]: '1' },
  { '': 'x' },
  { 'pa\u0000ge': '1' },
  { page: '1\u0000' },
  { ÿ: '1' },
  { apiKey: 'rpk_x' },
];

/** Raw query strings with broken percent-encoding, NULs and stray separators, sent as they are. */
const RAW = [
  'Search=%',
  'Search=%E0%A4%A',
  'Filter=country%3D%3D%FF',
  'page=%00',
  'Filter=%00',
  '%00=1',
  'a=%ZZ',
  '&&&=&',
  'Filter[=1',
  'FilterList[country=US',
];

describe('hostile inputs', () => {
  it('never produce a 5xx on any report endpoint: 200 or a 4xx problem', async () => {
    let calls = 0;
    const failures: string[] = [];
    for (const path of ENDPOINTS) {
      // The legacy endpoint runs the successor's code: every 7th input is enough to show it answers the same way.
      for (const params of path.startsWith('/api/v1/revenues') ? HOSTILE.filter((_, i) => i % 7 === 0) : HOSTILE) {
        if (++calls % 100 === 0) await freshKey(); // stay inside the per-key rate limit
        const res = await call(path, q(params));
        const label = `${path} ${JSON.stringify(params).slice(0, 120)} → ${res.status}`;
        if (res.status >= 500) failures.push(`${label} ${res.text.slice(0, 200)}`);
        else if (res.status !== 200) {
          if (
            !(res.status >= 400 && res.status < 500) ||
            !/^application\/problem\+json/.test(res.headers.get('content-type') ?? '')
          ) {
            failures.push(`${label}: not a problem+json 4xx`);
          } else if (res.status === 400 && !(res.json.errors?.length > 0))
            failures.push(`${label}: 400 without errors[]`);
        }
      }
    }
    for (const path of ENDPOINTS.slice(0, 3)) {
      for (const raw of RAW) {
        const res = await call(path, raw);
        if (
          res.status >= 500 ||
          (res.status !== 200 && !/^application\/problem\+json/.test(res.headers.get('content-type') ?? ''))
        ) {
          failures.push(`${path}?${raw} → ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('give the documented answers for the paging and injection attempts', async () => {
    expect((await call(ENDPOINTS[2], 'page=2147483647&pageSize=1000')).json.data).toEqual([]);
    for (const page of ['2147483648', '99999999999', '0', '-1', '1.5', '1e3'])
      expectProblem(await call(ENDPOINTS[1], `page=${page}`), 400, 'page');
    expectProblem(await call(ENDPOINTS[2], q({ sortBy: 'country;drop table users' })), 400, 'sortBy');
    expectProblem(await call(ENDPOINTS[1], q({ Search: 'x'.repeat(201) })), 400, 'Search');
    expectProblem(
      await call(
        ENDPOINTS[2],
        q({
          Filter: Array(MAX_FILTER_TERMS + 1)
            .fill('country==US')
            .join(','),
        }),
      ),
      400,
      'Filter',
    );
    // At the term limit a filter still works (and is not a 5xx on the largest account's rows).
    for (const path of PAGED.slice(0, 2)) {
      const atLimit = await call(
        path,
        q({ Filter: Array(MAX_FILTER_TERMS).fill('impressions>0').join(';'), pageSize: 1 }),
      );
      expect(atLimit.status, atLimit.text.slice(0, 300)).toBe(200);
      expect(atLimit.json.meta.totalRows).toBeGreaterThan(0);
    }
    expect(
      (await call(ENDPOINTS[2], q({ Filter: "gameName==\\'\\; drop table users\\; --" }))).json.meta.totalRows,
    ).toBe(0);
    // Still there after all of the above.
    expect((await call(ENDPOINTS[1], 'pageSize=1')).json.meta.totalRows).toBeGreaterThan(0);
  });
});

/**
 * Issue 24, point 6: the revenue tables can be distributed by account (Citus, docs/scaling.md) only if every
 * query on them names its account, so that it goes to the one node that holds that account's rows. This runs
 * every report, rows and export query the API and the dashboard make, over the shapes that pick different SQL
 * (whole account, few sites, most sites, one country, partial and whole months, deep pages, sorts, filters,
 * searches, both export formats), records each statement sent, and fails on any that reads revenue_daily or
 * revenue_rollup without an equality on that table's user_id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDatabase, type Database } from '@/db/client';
import { DEMO_IDS } from '@/db/seed';
import { readCountriesView } from '@/lib/dashboard/countries';
import { download, DOWNLOAD_REPORTS } from '@/lib/dashboard/downloads';
import { getDailyRevenue, getDataSpan, getRevenueBySite } from '@/lib/reports';
import type { Principal } from '@/lib/access';
import { get } from '../support/api';
import { openTestDatabase } from '../support/db';
import { demoKey, sessionPrincipal } from '../support/keys';

const REVENUE_TABLES = ['revenue_daily', 'revenue_rollup'];
const statements: string[] = [];
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase({ observe: (sql) => statements.push(sql) });
  setDatabase(database);
});
afterAll(async () => {
  setDatabase(undefined);
  await database.close();
});

/**
 * What a statement lacks: for each revenue table it reads (FROM or JOIN), an equality on that table's
 * user_id (`"revenue_daily"."user_id" = $1`). Each read needs its own: a subquery or UNION branch may not
 * lean on another's.
 */
function missingAccountPredicates(statement: string): string[] {
  return REVENUE_TABLES.flatMap((table) => {
    const reads = statement.match(new RegExp(`\\b(from|join)\\s+"${table}"`, 'gi'))?.length ?? 0;
    const predicates = statement.match(new RegExp(`"${table}"\\."user_id"\\s*=\\s*\\$\\d+`, 'g'))?.length ?? 0;
    return reads > predicates ? [`${table}: ${reads} read(s), ${predicates} account predicate(s)`] : [];
  });
}

describe('the check itself', () => {
  it('finds a read without its account, and one of two reads without it', () => {
    const guarded = 'select 1 from "revenue_daily" where "revenue_daily"."user_id" = $1';
    expect(missingAccountPredicates(guarded)).toEqual([]);
    expect(missingAccountPredicates('select 1 from "revenue_daily" where "revenue_daily"."site_id" = $1')).toHaveLength(
      1,
    );
    expect(missingAccountPredicates(`${guarded} union all select 1 from "revenue_daily" where true`)).toHaveLength(1);
    expect(missingAccountPredicates('select 1 from "sites"')).toEqual([]);
  });
});

describe('every report, rows and export query names its account', () => {
  const today = '2026-06-30';
  const q = (path: string, params: Record<string, string | number>) =>
    `${path}?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;

  it('over the API and the dashboard, for every shape of request', async () => {
    const key = (await demoKey()).raw;
    const sites: string[] = (await get('/api/v1/sites', { key })).json.map((s: { siteId: string }) => s.siteId);
    expect(sites.length).toBeGreaterThanOrEqual(3);
    const scoped = (await demoKey({ siteIds: [sites[0]] })).raw;
    const ranges = [
      { fromDate: '2026-01-01', toDate: '2026-03-31' }, // whole months
      { fromDate: '2025-07-17', toDate: today }, // partial months at both ends
      { fromDate: '2026-06-03', toDate: '2026-06-09' }, // within one month
    ];
    const subsets: Record<string, string>[] = [{}, { siteIds: sites[0] }, { siteIds: sites.slice(0, -1).join(',') }];
    const paths: string[] = [];
    for (const range of ranges) {
      for (const subset of subsets) {
        paths.push(q('/api/v1/reports/totals', { ...range, ...subset }));
        paths.push(q('/api/v1/reports/by-country', { ...range, ...subset, sortBy: 'revenueAmount', Filter: 'cpm>0' }));
      }
    }
    paths.push(
      q('/api/v1/reports/by-country', { Search: 'united', pageSize: 5 }),
      q('/api/v1/reports/countries', { pageSize: 10 }),
      q('/api/v1/reports/countries', { page: 50, pageSize: 10 }),
      q('/api/v1/reports/countries', { page: 50, pageSize: 10, sortDirection: 'desc' }),
      q('/api/v1/reports/countries', { sortBy: 'cpm', sortDirection: 'desc', Filter: `createdAt>=2026-01-01` }),
      q('/api/v1/reports/countries', { Search: 'united', Filter: 'country==US;impressions>10' }),
      q('/api/v1/reports/countries', { 'FilterList[country]': 'US,DE', sortBy: 'revenueAmount' }),
      q('/api/v1/revenues/countries', { pageSize: 5 }),
      q('/api/v1/reports/countries/export', { Filter: 'country==US' }),
      '/api/v1/payments/balance',
      '/api/v1/payments/statements',
    );
    for (const path of paths) expect((await get(path, { key })).status, path).toBe(200);
    for (const accept of ['text/csv', 'application/x-ndjson']) {
      const res = await get('/api/v1/reports/countries/export?Filter=createdAt>=2026-06-01', {
        key,
        headers: { Accept: accept },
      });
      expect(res.status).toBe(200);
    }
    expect((await get(q('/api/v1/reports/totals', ranges[1]), { key: scoped })).status).toBe(200);

    const owner = sessionPrincipal(DEMO_IDS.users.demo);
    const viewer: Principal = { ...owner, memberRole: 'viewer', siteScope: [sites[0]] };
    const view = readCountriesView(new URLSearchParams()) as Exclude<ReturnType<typeof readCountriesView>, Error>;
    for (const principal of [owner, viewer]) {
      for (const range of ranges) {
        const inputs: { fromDate: string; toDate: string; siteIds: string[] | null; country?: string }[] = [
          { ...range, siteIds: null },
          { ...range, siteIds: [sites[1]] },
          { ...range, siteIds: null, country: 'US' },
        ];
        for (const input of inputs) {
          if (principal.siteScope && input.siteIds) continue;
          await getDailyRevenue(principal, input);
          await getRevenueBySite(principal, input);
          for (const report of DOWNLOAD_REPORTS) {
            if (principal.siteScope && report === 'rows') continue;
            const { body } = await download(principal, report, { country: null, ...input }, view);
            if (typeof body !== 'string') for await (const chunk of body) void chunk;
          }
        }
      }
      await getDataSpan(principal);
    }

    const revenueReads = statements.filter((s) => REVENUE_TABLES.some((t) => s.includes(`"${t}"`)));
    expect(revenueReads.length).toBeGreaterThan(50);
    const offenders = revenueReads
      .map((statement) => ({ statement, missing: missingAccountPredicates(statement) }))
      .filter((o) => o.missing.length > 0);
    expect([...new Set(offenders.map((o) => o.statement))]).toEqual([]);
  });
});

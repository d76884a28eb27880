/**
 * The report cache (lib/reports/result-cache.ts): a repeated report is answered without reading the revenue
 * tables, identical reports asked together are computed once, a write changes the next answer at once, and no
 * other scope or account is ever answered from an entry that is not its own.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDatabase, setReadDatabase, type Database } from '@/db/client';
import { readEnv, setEnv } from '@/lib/platform/env';
import { byCountryQuery, getDailyRevenue, getRevenueBySite, getSumsByCountry, getTotals } from '@/lib/reports';
import { get } from '../support/api';
import { openTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { issueKey, sessionPrincipal } from '../support/keys';
import { forOneRequest, type Principal } from '@/lib/access';
import { q, sqlSums } from './reports-helpers';

const statements: string[] = [];
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase({ observe: (text) => statements.push(text) });
  setDatabase(database);
});
afterAll(async () => {
  setDatabase(undefined);
  await database.close();
});

/** How many statements `work` sent that read the revenue tables. */
async function revenueReadsOf(work: () => Promise<unknown>): Promise<number> {
  const before = statements.length;
  await work();
  return statements.slice(before).filter((text) => /"?revenue_(daily|rollup)"?/.test(text)).length;
}

const days = { fromDate: '2025-03-10', toDate: '2025-05-20' };
const range = { siteIds: null, ...days };

async function publisherWithRevenue() {
  const owner = await createPublisher(database.db);
  const [a, b] = [await createSite(database.db, owner.id), await createSite(database.db, owner.id)];
  for (const [site, scale] of [
    [a, 1],
    [b, 10],
  ] as const) {
    await createRevenue(database.db, site.id, [
      { day: '2025-03-15', country: 'US', impressions: 100 * scale, revenueMicros: 1_000_001 * scale },
      { day: '2025-04-02', country: 'DE', impressions: 30 * scale, revenueMicros: 333_333 * scale },
      { day: '2025-05-20', country: 'US', impressions: 7 * scale, revenueMicros: 77 * scale },
    ]);
  }
  return { owner, principal: sessionPrincipal(owner.id), sites: [a, b] };
}

describe('the report cache', () => {
  it('answers a repeated report of every kind without reading the revenue tables', async () => {
    const { principal } = await publisherWithRevenue();
    const byCountry = { ...byCountryQuery.parse({}), ...range };
    const reports = [
      () => getTotals(principal, range),
      () => getSumsByCountry(principal, byCountry),
      () => getDailyRevenue(principal, range),
      () => getRevenueBySite(principal, range),
    ];
    for (const report of reports) {
      const first = await report();
      expect(await revenueReadsOf(report)).toBe(0);
      expect(await report()).toEqual(first);
    }
  });

  it('computes identical reports asked at the same time once', async () => {
    const { principal } = await publisherWithRevenue();
    let answers: unknown[] = [];
    const reads = await revenueReadsOf(async () => {
      answers = await Promise.all(Array.from({ length: 5 }, () => getTotals(principal, range)));
    });
    expect(reads).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
  });

  it('answers a write at once: the next report equals the sums of revenue_daily', async () => {
    const { owner, principal, sites } = await publisherWithRevenue();
    const before = await getTotals(principal, range);
    await createRevenue(database.db, sites[0].id, [
      { day: '2025-04-03', country: 'FR', impressions: 5, revenueMicros: 9 },
    ]);
    const after = await getTotals(principal, range);
    expect(after.totalImpressions).toBe(before.totalImpressions + 5);
    const exact = await sqlSums(database.db, [sites[0].id, sites[1].id], range.fromDate, range.toDate);
    expect(after.totalImpressions).toBe(exact.impressions);

    // An update and a delete, through the API with a key: each answer is the table's sums at that moment.
    const { raw } = await issueKey(owner.id);
    const totals = async () => (await get(`/api/v1/reports/totals?${q(days)}`, { key: raw })).json.totalImpressions;
    await totals();
    await database.db.execute(
      sql`update revenue_daily set impressions = impressions + 1000 where site_id = ${sites[1].id}`,
    );
    expect(await totals()).toBe(exact.impressions + 3 * 1000);
    await database.db.execute(sql`delete from revenue_daily where site_id = ${sites[1].id}`);
    expect(await totals()).toBe((await sqlSums(database.db, [sites[0].id], range.fromDate, range.toDate)).impressions);
  });

  it('never answers another scope or another account from an entry that is not its own', async () => {
    const first = await publisherWithRevenue();
    const second = await publisherWithRevenue();
    const whole = await getTotals(first.principal, range);
    // A key limited to one site, then a request for that site: each its own figures, not the whole account's.
    const { raw } = await issueKey(first.owner.id, { siteIds: [first.sites[0].id] });
    const scoped = (await get(`/api/v1/reports/totals?${q(days)}`, { key: raw })).json;
    const oneSite = await sqlSums(database.db, [first.sites[0].id], range.fromDate, range.toDate);
    expect(scoped.totalImpressions).toBe(oneSite.impressions);
    expect(scoped.totalImpressions).not.toBe(whole.totalImpressions);
    // The other account has the same figures but its own entry: its first report reads the tables.
    expect(await revenueReadsOf(() => getTotals(second.principal, range))).toBeGreaterThan(0);
    await database.db.execute(
      sql`update revenue_daily set impressions = impressions + 1 where user_id = ${second.owner.id}`,
    );
    expect((await getTotals(second.principal, range)).totalImpressions).toBe(whole.totalImpressions + 6);
    expect((await getTotals(first.principal, range)).totalImpressions).toBe(whole.totalImpressions);
  });

  it('keeps nothing with REPORT_CACHE_MB=0', async () => {
    const { principal } = await publisherWithRevenue();
    setEnv(readEnv({ ...process.env, REPORT_CACHE_MB: '0' }));
    try {
      await getTotals(principal, range);
      expect(await revenueReadsOf(() => getTotals(principal, range))).toBe(1);
    } finally {
      setEnv(undefined);
    }
  });

  it('keeps nothing when reads go to a replica, whose answers may come from either database', async () => {
    const { principal } = await publisherWithRevenue();
    setReadDatabase(database); // the same database installed as the replica: the path, not the lag, is tested
    try {
      await getTotals(principal, range);
      expect(await revenueReadsOf(() => getTotals(principal, range))).toBe(1);
    } finally {
      setReadDatabase(undefined);
    }
  });
});

describe('a principal for one request (forOneRequest)', () => {
  /** How many times `work` read the account's sites and data version (readableSites' one query). */
  async function accountReadsOf(work: () => Promise<unknown>): Promise<number> {
    const before = statements.length;
    await work();
    return statements.slice(before).filter((text) => text.includes('default_range_days')).length;
  }
  const pageOf = (principal: Principal) => forOneRequest(principal);

  it("reads the account once for all of a page's reports; a principal without it reads for each", async () => {
    const { principal, sites } = await publisherWithRevenue();
    const reports = (asking: Principal) => () =>
      Promise.all([
        getTotals(asking, range),
        getTotals(asking, { ...range, siteIds: [sites[0].id] }),
        getSumsByCountry(asking, { ...byCountryQuery.parse({}), ...range }),
        getDailyRevenue(asking, range),
        getRevenueBySite(asking, range),
      ]);
    expect(await accountReadsOf(reports(pageOf(principal)))).toBe(1);
    expect(await accountReadsOf(reports(principal))).toBe(5);
  });

  it("still narrows to the principal's sites, and the next render sees a write", async () => {
    const { principal, sites } = await publisherWithRevenue();
    const viewer = pageOf({ ...principal, memberRole: 'viewer', siteScope: [sites[0].id] });
    const oneSite = await getTotals(viewer, range);
    expect(oneSite.totalImpressions).toBe(
      (await sqlSums(database.db, [sites[0].id], days.fromDate, days.toDate)).impressions,
    );
    await expect(getTotals(viewer, { ...range, siteIds: [sites[1].id] })).rejects.toMatchObject({ code: 'forbidden' });

    const render = pageOf(principal);
    const before = await getTotals(render, range);
    await createRevenue(database.db, sites[1].id, [
      { day: '2025-04-04', country: 'FR', impressions: 3, revenueMicros: 1 },
    ]);
    expect((await getTotals(pageOf(principal), range)).totalImpressions).toBe(before.totalImpressions + 3);
  });

  it("takes an API key's request's account from the key's lookup: the report reads it no more", async () => {
    const { owner } = await publisherWithRevenue();
    const { raw } = await issueKey(owner.id);
    const reads = await accountReadsOf(() => get(`/api/v1/reports/totals?${q(days)}`, { key: raw }));
    expect(reads).toBe(1); // the key's lookup itself
  });
});

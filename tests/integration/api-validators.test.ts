/**
 * Issue 24: answers made from an account's data carry validators made from the account's data version
 * (lib/http/validators.ts), which every write bumps in its own transaction (db/migrations/0012_data_version.sql).
 * A revalidation is a 304 without a body; nothing is shared between accounts or between scopes.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed';
import { callApi, get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { adminKey, demoKey, issueKey, rivalKey } from '../support/keys';

const t = useTestDatabase();
let demo: string;
let rival: string;

beforeAll(async () => {
  demo = (await demoKey()).raw;
  rival = (await rivalKey()).raw;
});

const ACCOUNT_DATA_PATHS = [
  '/api/v1/sites',
  '/api/v1/reports/totals?fromDate=2025-01-01&toDate=2025-12-31',
  '/api/v1/reports/by-country?pageSize=5',
  '/api/v1/reports/countries?pageSize=5',
  '/api/v1/reports/countries/export?Filter=country==US',
  '/api/v1/revenues/countries?pageSize=5',
];

const revalidate = (path: string, key: string, headers: Record<string, string>, method: 'GET' | 'HEAD' = 'GET') =>
  callApi(method, path, { key, headers });

describe.each(ACCOUNT_DATA_PATHS)('%s', (path) => {
  it('carries a weak ETag, Last-Modified and Cache-Control: private, no-cache', async () => {
    const res = await get(path, { key: demo });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(new Date(res.headers.get('last-modified')!).getTime()).toBeLessThanOrEqual(Date.now());
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    // The same data and request: the same tag.
    expect((await get(path, { key: demo })).headers.get('etag')).toBe(res.headers.get('etag'));
  });

  it('answers 304 without a body to If-None-Match or If-Modified-Since, GET and HEAD alike', async () => {
    const first = await get(path, { key: demo });
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    const conditions: Record<string, string>[] = [
      { 'If-None-Match': etag },
      { 'If-None-Match': `"x", ${etag}` },
      { 'If-Modified-Since': lastModified },
    ];
    for (const headers of conditions) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await revalidate(path, demo, headers, method);
        expect(res.status, `${method} ${JSON.stringify(headers)}`).toBe(304);
        expect(res.text).toBe('');
        expect(res.headers.get('etag')).toBe(etag);
        expect(res.headers.get('cache-control')).toBe('private, no-cache');
        expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
      }
    }
  });
});

describe('what the validators depend on', () => {
  const TOTALS = '/api/v1/reports/totals?fromDate=2025-01-01&toDate=2025-12-31';

  it('never answers another account 304 for the same request and tag', async () => {
    const etag = (await get(TOTALS, { key: demo })).headers.get('etag')!;
    const res = await revalidate(TOTALS, rival, { 'If-None-Match': etag });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(etag);
    expect(res.json.totalRevenue).not.toBe((await get(TOTALS, { key: demo })).json.totalRevenue);
  });

  it('gives a site-scoped key of the same account its own tag', async () => {
    const [site] = (await get('/api/v1/sites', { key: demo })).json;
    const scoped = (await demoKey({ siteIds: [site.siteId] })).raw;
    const etag = (await get(TOTALS, { key: demo })).headers.get('etag')!;
    const res = await revalidate(TOTALS, scoped, { 'If-None-Match': etag });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(etag);
  });

  it('gives each media type and each query its own tag', async () => {
    const path = '/api/v1/reports/by-country?pageSize=5';
    const json = (await get(path, { key: demo })).headers.get('etag');
    const csv = (await get(path, { key: demo, headers: { Accept: 'text/csv' } })).headers.get('etag');
    const page2 = (await get(`${path}&page=2`, { key: demo })).headers.get('etag');
    expect(new Set([json, csv, page2]).size).toBe(3);
  });

  it('keeps errors and writes uncached: no-store and no ETag', async () => {
    const answers = [
      await get('/api/v1/reports/totals?fromDate=2025-13-01', { key: demo }),
      await get('/api/v1/reports/totals', { key: demo, headers: { Accept: 'image/png' } }),
      await get('/api/v1/reports/totals?siteIds=00000000-0000-4000-8000-000000000000', { key: demo }),
      await callApi('POST', '/api/v1/api-keys', { key: demo, body: { label: 'no cache' } }),
    ];
    expect(answers.map((r) => r.status)).toEqual([400, 406, 403, 200]);
    for (const res of answers) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('etag')).toBeNull();
    }
  });
});

describe('every write changes the validator, in its own transaction', () => {
  let owner: string;
  let key: string;
  let site: string;
  const TOTALS = '/api/v1/reports/totals?fromDate=2025-09-01&toDate=2025-09-30';
  const tagOf = async (path = TOTALS) => (await get(path, { key })).headers.get('etag')!;
  const stillCurrent = async (etag: string, path = TOTALS) =>
    (await revalidate(path, key, { 'If-None-Match': etag })).status === 304;

  beforeAll(async () => {
    owner = (await createPublisher(t.db)).id;
    site = (await createSite(t.db, owner)).id;
    key = (await issueKey(owner)).raw;
  });

  it("an import of revenue rows (the operators' API), and a correction of one of them", async () => {
    const admin = (await adminKey()).raw;
    const body = (revenue: string) =>
      `day,siteId,country,impressions,clicks,adRequests,revenue\n2025-09-01,${site},US,10,1,12,${revenue}\n`;
    const post = (revenue: string) =>
      callApi('POST', '/api/v1/admin/revenue', {
        key: admin,
        body: body(revenue),
        headers: { 'Content-Type': 'text/csv' },
      });
    const before = await tagOf();
    expect((await post('1.25')).status).toBe(200);
    const imported = await tagOf();
    expect(imported).not.toBe(before);
    expect(await stillCurrent(before)).toBe(false);
    expect((await get(TOTALS, { key })).json.totalRevenue).toBe(1.25);
    expect((await post('2.5')).status).toBe(200);
    expect(await stillCurrent(imported)).toBe(false);
    expect((await get(TOTALS, { key })).json.totalRevenue).toBe(2.5);
  });

  it('a new site, a site edited, and the default range', async () => {
    let etag = await tagOf('/api/v1/sites');
    await createSite(t.db, owner);
    expect(await stillCurrent(etag, '/api/v1/sites')).toBe(false);
    etag = await tagOf('/api/v1/sites');
    await t.db.execute(sql`update sites set name = 'Renamed' where id = ${site}`);
    expect(await stillCurrent(etag, '/api/v1/sites')).toBe(false);
    etag = await tagOf('/api/v1/reports/totals');
    await t.db.execute(sql`update users set default_range_days = 90 where id = ${owner}`);
    expect(await stillCurrent(etag, '/api/v1/reports/totals')).toBe(false);
  });

  it('a write that rolls back changes nothing; writes to another account leave this one alone', async () => {
    const etag = await tagOf();
    await t.db
      .transaction(async (tx) => {
        await tx.execute(sql`update revenue_daily set impressions = impressions + 1 where site_id = ${site}`);
        tx.rollback();
      })
      .catch(() => {});
    expect(await stillCurrent(etag)).toBe(true);
    await t.db.execute(sql`update sites set name = 'Elsewhere' where user_id = ${DEMO_IDS.users.rival}`);
    expect(await stillCurrent(etag)).toBe(true);
  });
});

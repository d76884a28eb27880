import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS, DEMO_SITES } from '@/db/seed-data';
import { get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { demoKey, issueKey, rivalKey } from '../support/keys';
import { DEMO_SITE_IDS, expectProblem, expectShape, RIVAL_SITE_IDS, SITE_SHAPE, sqlRows } from './reports-helpers';
import { sql } from 'drizzle-orm';

const t = useTestDatabase();
let demo: string;
let rival: string;

beforeAll(async () => {
  demo = (await demoKey()).raw;
  rival = (await rivalKey()).raw;
});

describe('GET /api/v1/sites', () => {
  it('returns every demo site with exactly the SiteResponse fields', async () => {
    const res = await get('/api/v1/sites', { key: demo });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Array.isArray(res.json)).toBe(true);
    for (const site of res.json) expectShape(site, SITE_SHAPE, 'site');

    const ids = res.json.map((s: { siteId: string }) => s.siteId);
    expect(ids.length).toBeGreaterThanOrEqual(5);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...DEMO_SITE_IDS].sort());
    expect(new Set(res.json.map((s: { status: string }) => s.status))).toEqual(
      new Set(['live', 'approved', 'pending']),
    );
  });

  it('reports what the sites table holds, field by field', async () => {
    const res = await get('/api/v1/sites', { key: demo });
    const rows = await sqlRows<Record<string, any>>(
      t.db,
      sql`select id, name, url, framework, status::text as status, daily_active_users, monthly_active_users,
                 created_at from sites where user_id = ${DEMO_IDS.users.demo}::uuid`,
    );
    expect(rows.length).toBe(res.json.length);
    for (const row of rows) {
      const site = res.json.find((s: { siteId: string }) => s.siteId === row.id);
      expect(site).toEqual({
        siteId: row.id,
        name: row.name,
        url: row.url,
        framework: row.framework,
        status: row.status,
        dailyActiveUsers: row.daily_active_users,
        monthlyActiveUsers: row.monthly_active_users,
        createdAt: new Date(row.created_at).toISOString(),
      });
      const spec = DEMO_SITES.find((s) => s.id === row.id)!;
      expect(site).toMatchObject({ name: spec.name, status: spec.status, framework: spec.framework });
    }
  });

  it('shows the rival only its own sites, and the demo account none of them', async () => {
    const mine = await get('/api/v1/sites', { key: rival });
    expect(mine.status).toBe(200);
    expect(mine.json.map((s: { siteId: string }) => s.siteId).sort()).toEqual([...RIVAL_SITE_IDS].sort());
    const demoSites = await get('/api/v1/sites', { key: demo });
    for (const id of RIVAL_SITE_IDS)
      expect(demoSites.json.some((s: { siteId: string }) => s.siteId === id)).toBe(false);
  });

  it('shows a site-scoped key only its allowed sites', async () => {
    const allowed = [DEMO_IDS.sites.wordGarden, DEMO_IDS.sites.skyHopper];
    const { raw } = await issueKey(DEMO_IDS.users.demo, { siteIds: allowed, label: 'scoped sites' });
    const res = await get('/api/v1/sites', { key: raw });
    expect(res.status).toBe(200);
    expect(res.json.map((s: { siteId: string }) => s.siteId).sort()).toEqual([...allowed].sort());
    for (const site of res.json) expectShape(site, SITE_SHAPE, 'site');
  });

  it('gives an operator without sites an empty list', async () => {
    const { raw } = await issueKey(DEMO_IDS.users.admin, {}, 'admin');
    const res = await get('/api/v1/sites', { key: raw });
    expect(res.status).toBe(200);
    expect(res.json).toEqual([]);
  });

  it('takes no query parameters: any one is a 400 naming it', async () => {
    for (const query of ['page=1', 'siteIds=' + DEMO_IDS.sites.skyHopper, 'bogus=1']) {
      const name = query.split('=')[0];
      expectProblem(await get(`/api/v1/sites?${query}`, { key: demo }), 400, name);
    }
  });

  it('negotiates the JSON media types and refuses CSV and others with 406', async () => {
    const base = await get('/api/v1/sites', { key: demo });
    for (const type of ['application/json', 'text/json', 'text/plain']) {
      const res = await get('/api/v1/sites', { key: demo, headers: { accept: type } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(new RegExp(`^${type.replace('/', '\\/')}`));
      expect(JSON.parse(res.text)).toEqual(base.json);
    }
    for (const type of ['text/csv', 'application/xml', 'image/png']) {
      expectProblem(await get('/api/v1/sites', { key: demo, headers: { accept: type } }), 406);
    }
  });

  it('answers 401 without a key and with a key in the query string', async () => {
    expectProblem(await get('/api/v1/sites'), 401);
    expectProblem(await get(`/api/v1/sites?apiKey=${demo}`), 401);
  });
});

import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS, DEMO_SITES } from '@/db/seed-data';
import { get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { demoKey, issueKey } from '../support/keys';
import {
  ROW_SHAPE,
  DEMO_SITE_IDS,
  expectPaged,
  expectProblem,
  expectRatio,
  micros,
  q,
  rowKey,
  shiftDay,
  sqlRows,
  uuidArray,
  walkPages,
} from './reports-helpers';

const t = useTestDatabase();
const ROWS_PATH = '/api/v1/reports/countries';
let demo: string;

beforeAll(async () => {
  demo = (await demoKey()).raw;
});

interface RawRow {
  site_id: string;
  day: string;
  country: string;
  impressions: string;
  clicks: string;
  ad_requests: string;
  revenue_micros: string;
  updated_at: string;
  user_id: string;
  ad_unit_id: string | null;
  name: string | null;
}

/** revenue_daily joined with sites, for the given sites, days and an extra hand-written condition. */
async function rawRows(siteIds: readonly string[], from: string, to: string, extra = sql`true`) {
  const rows = await sqlRows<RawRow>(
    t.db,
    sql`
    select r.site_id::text as site_id, r.day::text as day, trim(r.country) as country, r.impressions::text as impressions,
           r.clicks::text as clicks, r.ad_requests::text as ad_requests, r.revenue_micros::text as revenue_micros,
           r.updated_at as updated_at, s.user_id::text as user_id, s.ad_unit_id, s.name
    from revenue_daily r join sites s on s.id = r.site_id
    where r.site_id = any(${uuidArray(siteIds)}) and r.day between ${from}::date and ${to}::date and ${extra}`,
  );
  return new Map(rows.map((r) => [`${r.site_id}|${r.day}|${r.country}`, r]));
}

/** A response row is exactly its database row. */
function expectSameRow(row: any, raw: RawRow | undefined) {
  expect(raw, rowKey(row)).toBeDefined();
  const r = raw!;
  expect(row).toMatchObject({
    impressions: Number(r.impressions),
    clicks: Number(r.clicks),
    adRequests: Number(r.ad_requests),
    country: r.country,
    createdAt: `${r.day}T00:00:00.000Z`,
    updatedAt: new Date(r.updated_at).toISOString(),
    gameId: r.site_id,
    userId: r.user_id,
    adUnitId: r.ad_unit_id,
    gameName: r.name,
  });
  expect(micros(row.revenueAmount)).toBe(Number(r.revenue_micros));
  expectRatio(row.cpm, Number(r.revenue_micros) / 1e6, Number(r.impressions), 1000);
  expectRatio(row.fillRate, Number(r.impressions), Number(r.ad_requests));
}

describe('GET /api/v1/reports/countries: envelope, paging and sorting', () => {
  it('returns page 1 of 20 rows over every row of the account, each exactly as stored', async () => {
    const res = await get(ROWS_PATH, { key: demo });
    expectPaged(res, ROW_SHAPE);
    const [{ n }] = await sqlRows<{ n: string }>(
      t.db,
      sql`select count(*)::text as n from revenue_daily
      where site_id in (select id from sites where user_id = ${DEMO_IDS.users.demo}::uuid)`,
    );
    expect(res.json.meta).toEqual({
      page: 1,
      pageSize: 20,
      sortBy: null,
      sortDirection: 'asc',
      totalRows: Number(n),
      totalPages: Math.ceil(Number(n) / 20),
    });
    expect(res.json.data).toHaveLength(20);
    const days = res.json.data.map((r: any) => r.createdAt.slice(0, 10)).sort();
    const raw = await rawRows(DEMO_SITE_IDS, days[0], days[days.length - 1]);
    for (const row of res.json.data) expectSameRow(row, raw.get(rowKey(row)));
  });

  it('answers a page past the end with 200 and no rows; caps pageSize at 1000', async () => {
    const past = await get(`${ROWS_PATH}?page=2147483647&pageSize=1000`, { key: demo });
    expectPaged(past, ROW_SHAPE);
    expect(past.json.data).toEqual([]);
    expect(past.json.meta.page).toBe(2147483647);
    expect(past.json.meta.totalRows).toBeGreaterThan(1000);
    const full = await get(`${ROWS_PATH}?pageSize=1000`, { key: demo });
    expect(full.json.data).toHaveLength(1000);
    expectProblem(await get(`${ROWS_PATH}?pageSize=1001`, { key: demo }), 400, 'pageSize');
    expectProblem(await get(`${ROWS_PATH}?page=0`, { key: demo }), 400, 'page');
    expectProblem(await get(`${ROWS_PATH}?sortBy=siteId`, { key: demo }), 400, 'sortBy');
  });

  it('sorts by country before paging: pages of 100 equal one page of 1000, in order, no duplicates', async () => {
    const from = shiftDay(t.today, -3);
    const filter = q({ Filter: `createdAt>=${from};createdAt<=${t.today}` });
    for (const dir of ['asc', 'desc']) {
      const base = `${ROWS_PATH}?${filter}&sortBy=COUNTRY&sortDirection=${dir}`;
      const { rows, meta } = await walkPages(`${base}&pageSize=100`, demo);
      expect(meta).toMatchObject({ sortBy: 'country', sortDirection: dir, totalRows: 5 * 4 * 48, totalPages: 10 });
      const one = await get(`${base}&pageSize=1000`, { key: demo });
      expect(rows).toEqual(one.json.data);
      const countries = rows.map((r: any) => r.country);
      const sorted = [...countries].sort();
      expect(countries).toEqual(dir === 'asc' ? sorted : sorted.reverse());
      expect(new Set(rows.map(rowKey)).size).toBe(rows.length);
    }
  });

  it('walks 20 days in pages of 500 by country: exactly the stored rows, each once', async () => {
    const from = shiftDay(t.today, -19);
    const path = `${ROWS_PATH}?${q({ Filter: `createdAt>=${from}`, sortBy: 'country', pageSize: 500 })}`;
    const { rows, pages } = await walkPages(path, demo);
    const raw = await rawRows(DEMO_SITE_IDS, from, t.today);
    expect(pages).toBe(Math.ceil(raw.size / 500));
    expect(rows.map(rowKey).sort()).toEqual([...raw.keys()].sort());
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1].country <= rows[i].country).toBe(true);
  });

  it('breaks ties when sorting by impressions on a small page size', async () => {
    const day = shiftDay(t.today, -1);
    const base = `${ROWS_PATH}?${q({ Filter: `createdAt==${day}`, sortBy: 'impressions' })}`;
    const { rows } = await walkPages(`${base}&pageSize=20`, demo);
    expect(rows).toEqual((await get(`${base}&pageSize=1000`, { key: demo })).json.data);
    expect(rows).toHaveLength(5 * 48);
    expect(new Set(rows.map(rowKey)).size).toBe(rows.length);
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1].impressions <= rows[i].impressions).toBe(true);
  });
});

describe('GET /api/v1/reports/countries: Filter and Search on row fields', () => {
  const from = () => shiftDay(t.today, -6);
  const dayRange = () => `createdAt>=${from()};createdAt<=${t.today}`;

  async function check(filter: string, extra: ReturnType<typeof sql>, sites: readonly string[] = DEMO_SITE_IDS) {
    const expected = await rawRows(sites, from(), t.today, extra);
    const { rows, meta } = await walkPages(
      `${ROWS_PATH}?${q({ Filter: `${dayRange()};${filter}`, pageSize: 1000 })}`,
      demo,
    );
    expect(meta.totalRows, filter).toBe(expected.size);
    expect(rows.map(rowKey).sort(), filter).toEqual([...expected.keys()].sort());
    for (const row of rows.slice(0, 50)) expectSameRow(row, expected.get(rowKey(row)));
    return expected.size;
  }

  it('filters dimension fields: createdAt, gameId, gameName, userId, adUnitId, country, updatedAt', async () => {
    const [a, b] = [DEMO_IDS.sites.skyHopper, DEMO_IDS.sites.wordGarden];
    const sky = DEMO_SITES.find((s) => s.id === a)!;
    expect(await check(`gameId==${a},gameId==${b.toUpperCase()}`, sql`r.site_id in (${a}::uuid, ${b}::uuid)`)).toBe(
      2 * 7 * 48,
    );
    expect(await check(`gameId!=${a}`, sql`r.site_id <> ${a}::uuid`)).toBe(4 * 7 * 48);
    await check(`createdAt==${shiftDay(t.today, -2)}`, sql`r.day = ${shiftDay(t.today, -2)}::date`);
    await check(`createdAt>${shiftDay(t.today, -2)}`, sql`r.day > ${shiftDay(t.today, -2)}::date`);
    await check(`createdAt<${shiftDay(t.today, -5)}`, sql`r.day < ${shiftDay(t.today, -5)}::date`);
    await check(`createdAt!=${t.today}`, sql`r.day <> ${t.today}::date`);
    expect(await check('GameName=@KING', sql`s.name ilike '%king%'`)).toBe(7 * 48);
    await check('gameName!@a', sql`s.name not ilike '%a%'`);
    await check('gameName==sky hopper', sql`s.id = ${a}::uuid`);
    await check(`userId==${DEMO_IDS.users.demo}`, sql`true`);
    await check(`adUnitId==${sky.adUnitId}`, sql`s.ad_unit_id = ${sky.adUnitId}`);
    await check('country==fr,country==JP;gameName>=M', sql`r.country in ('FR','JP') and s.name >= 'M'`);
    await check(`updatedAt>=${t.today}`, sql`(r.updated_at at time zone 'UTC')::date >= ${t.today}::date`);
    await check(
      'impressions>5000;fillRate>=0.9',
      sql`r.impressions > 5000 and r.impressions::numeric / r.ad_requests >= 0.9`,
    );
    await check(
      'revenueAmount<0.5,cpm>12',
      sql`(r.revenue_micros < 500000 or (r.impressions > 0 and r.revenue_micros::numeric / r.impressions / 1000 > 12))`,
    );
  });

  it('filters by FilterList on gameId and country, both syntaxes', async () => {
    const [a, b] = [DEMO_IDS.sites.mergeKingdom, DEMO_IDS.sites.dungeonDash];
    const res = await get(
      `${ROWS_PATH}?${q({ Filter: `createdAt==${t.today}`, 'FilterList[gameId]': `${a},${b}`, 'FilterList.country': 'US,de' })}`,
      { key: demo },
    );
    expectPaged(res, ROW_SHAPE);
    expect(res.json.data.map(rowKey).sort()).toEqual(
      [a, b].flatMap((s) => ['DE', 'US'].map((c) => `${s}|${t.today}|${c}`)).sort(),
    );
  });

  it('searches country code, English country name and site name; escapes, % and _ are literal', async () => {
    const user = await createPublisher(t.db);
    const names = ['Comma, Semi; Back\\slash', '100% Fun_Run', '1000 FunXRun'];
    const sites = [];
    for (const name of names) sites.push(await createSite(t.db, user.id, { name }));
    const day = shiftDay(t.today, -1);
    for (const s of sites)
      await createRevenue(t.db, s.id, [
        { day, country: 'NO', impressions: 5, adRequests: 9 },
        { day, country: 'JP', impressions: 1, adRequests: 2 },
      ]);
    const { raw } = await issueKey(user.id, { label: 'escapes' });
    const idsOf = async (params: Record<string, string>) => {
      const res = await get(`${ROWS_PATH}?${q({ ...params, pageSize: 1000 })}`, { key: raw });
      expectPaged(res, ROW_SHAPE);
      return res.json.data.map((r: any) => `${r.gameName}|${r.country}`).sort();
    };
    const rowsOf = (i: number[], countries = ['JP', 'NO']) =>
      i.flatMap((k) => countries.map((c) => `${names[k]}|${c}`)).sort();
    expect(await idsOf({ Search: '0%' })).toEqual(rowsOf([1]));
    expect(await idsOf({ Search: 'N_r' })).toEqual(rowsOf([1]));
    expect(await idsOf({ Search: '%' })).toEqual(rowsOf([1]));
    expect(await idsOf({ Search: 'comma, SEMI; back\\slash' })).toEqual(rowsOf([0]));
    expect(await idsOf({ Search: 'norway' })).toEqual(rowsOf([0, 1, 2], ['NO']));
    expect(await idsOf({ Search: 'jp' })).toEqual(rowsOf([0, 1, 2], ['JP']));
    expect(await idsOf({ Filter: 'gameName==Comma\\, Semi\\; Back\\\\slash' })).toEqual(rowsOf([0]));
    expect(await idsOf({ Filter: 'gameName=@\\;,gameName=@_;country==no' })).toEqual(rowsOf([0, 1], ['NO']));
    expect(await idsOf({ Filter: 'gameName==100% fun_run' })).toEqual(rowsOf([1]));
    expect(await idsOf({ Filter: 'gameName=@%;gameName!@_' })).toEqual([]);
    expect(await idsOf({ 'FilterList[gameName]': 'Comma\\, Semi\\; Back\\\\slash,1000 FunXRun' })).toEqual(
      rowsOf([0, 2]),
    );
  });

  it('matches non-ASCII site names case-insensitively in Search and Filter', async () => {
    const user = await createPublisher(t.db);
    const site = await createSite(t.db, user.id, { name: 'Über Ärger Ça 🎮' });
    const other = await createSite(t.db, user.id, { name: 'Uber Arger' });
    for (const s of [site, other])
      await createRevenue(t.db, s.id, [{ day: t.today, country: 'AT', impressions: 2, adRequests: 3 }]);
    const { raw } = await issueKey(user.id, { label: 'unicode' });
    const cases: Record<string, string>[] = [
      { Search: 'üBER ä' },
      { Search: '🎮' },
      { Filter: 'gameName=@ÄRGER ç' },
      { Filter: 'gameName==über ärger ça 🎮' },
    ];
    for (const params of cases) {
      const res = await get(`${ROWS_PATH}?${q(params)}`, { key: raw });
      expect(res.status, res.text).toBe(200);
      expect(
        res.json.data.map((r: any) => r.gameId),
        JSON.stringify(params),
      ).toEqual([site.id]);
    }
  });

  it('rejects malformed filters with 400 naming Filter and the position, and unknown fields', async () => {
    for (const filter of [
      'gameId==nope',
      'createdAt>=2026-1-1',
      'gameName=x',
      'country==US,',
      ';',
      'siteId==x',
      'gameName==\\',
      'gameId>=' + DEMO_SITE_IDS[0],
    ]) {
      const body = expectProblem(await get(`${ROWS_PATH}?${q({ Filter: filter })}`, { key: demo }), 400, 'Filter');
      expect(body.detail, filter).toMatch(/position \d+/);
    }
    expectProblem(await get(`${ROWS_PATH}?FilterList[siteId]=x`, { key: demo }), 400, /^FilterList/);
    expectProblem(await get(`${ROWS_PATH}?siteIds=${DEMO_SITE_IDS[0]}`, { key: demo }), 400, 'siteIds');
    expectProblem(await get(`${ROWS_PATH}?fromDate=${t.today}`, { key: demo }), 400, 'fromDate');
  });
});

describe('CSV of the rows', () => {
  it('opens cells that look like spreadsheet formulas as text', async () => {
    const user = await createPublisher(t.db);
    const names = ['=HYPERLINK("http://evil.example","x")', '+1', '-2', '@SUM(A1)', 'Plain'];
    for (const name of names) {
      const site = await createSite(t.db, user.id, { name });
      await createRevenue(t.db, site.id, [{ day: t.today, country: 'US', impressions: 1, adRequests: 1 }]);
    }
    const { raw } = await issueKey(user.id);
    const res = await get('/api/v1/reports/countries?sortBy=gameName&pageSize=10', {
      key: raw,
      headers: { accept: 'text/csv' },
    });
    expect(res.status).toBe(200);
    const json = await get('/api/v1/reports/countries?sortBy=gameName&pageSize=10', { key: raw });
    for (const row of json.json.data) {
      const name: string = row.gameName;
      const expected = /^[=+\-@]/.test(name) ? `'${name}` : name;
      // csv-stringify quotes cells with quotes or commas; compare on the quoted form when needed.
      const cell = /[",]/.test(expected) ? `"${expected.replaceAll('"', '""')}"` : expected;
      expect(res.text, name).toContain(cell);
      if (expected !== name)
        expect(res.text.split(/\r?\n/).some((line) => line.includes(`,${name},`) || line.startsWith(`${name},`))).toBe(
          false,
        );
    }
  });
});

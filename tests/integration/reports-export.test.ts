import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as exportRoute from '@/app/api/v1/reports/countries/export/route';
import { setDatabase, type RunStream } from '@/db/client';
import { DEMO_IDS } from '@/db/seed-data';
import { CLIENT_ADDRESS_HEADER } from '@/lib/http/client-address';
import { getRateLimitStore, setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { get, type ApiResult } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { demoKey, issueKey } from '../support/keys';
import { expectProblem, nowDay, q, shiftDay } from './reports-helpers';
import { loggedLines } from '../support/logs';

const t = useTestDatabase();
const ROWS_PATH = '/api/v1/reports/countries';
const EXPORT = '/api/v1/reports/countries/export';
const CSV = { accept: 'text/csv' };
const NDJSON = { accept: 'application/x-ndjson' };
let demo: string;

beforeAll(async () => {
  demo = (await demoKey()).raw;
});

/** Every page of the rows for `params`, as JSON rows and as the CSV lines of each page (header dropped). */
async function pagesOfRows(params: Record<string, string>, key = demo) {
  const rows: any[] = [];
  const csvLines: string[] = [];
  let header = '';
  for (let page = 1; ; page++) {
    const path = `${ROWS_PATH}?${q({ ...params, pageSize: 1000, page })}`;
    const json = await get(path, { key });
    expect(json.status, json.text.slice(0, 300)).toBe(200);
    rows.push(...json.json.data);
    const csv = await get(path, { key, headers: CSV });
    const [head, ...lines] = csv.text.split('\n');
    header = head;
    if (json.json.data.length > 0) csvLines.push(lines.join('\n'));
    if (page >= json.json.meta.totalPages) return { rows, csv: `${header}\n${csvLines.join('')}` };
  }
}

function expectExport(res: ApiResult, format: 'csv' | 'ndjson') {
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  const type = format === 'csv' ? 'text/csv' : 'application/x-ndjson';
  expect(res.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="revenue-rows-${nowDay()}.${format}"`);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
}

describe('GET /api/v1/reports/countries/export: the rows, every page at once', () => {
  const from = () => shiftDay(t.today, -29);
  const cases = (): Record<string, string>[] => [
    { Filter: `createdAt>=${from()}` },
    { Filter: `createdAt>=${from()}`, sortBy: 'revenueAmount', sortDirection: 'desc' },
    { Filter: `createdAt>=${shiftDay(t.today, -9)}`, Search: 'dash', sortBy: 'country' },
    { Filter: `createdAt>=${shiftDay(t.today, -9)}`, Search: 'germany', sortBy: 'cpm', sortDirection: 'DESC' },
    {
      Filter: `createdAt>=${shiftDay(t.today, -4)};gameName=@o,impressions>4000`,
      sortBy: 'gameName',
      sortDirection: 'desc',
    },
    { Filter: `createdAt>=${shiftDay(t.today, -4)}`, 'FilterList[country]': 'US,DE', sortBy: 'adUnitId' },
    { Filter: `createdAt>=${shiftDay(t.today, -4)}`, sortBy: 'updatedAt', sortDirection: 'desc' },
  ];

  it('streams as CSV exactly the concatenated CSV pages, and as NDJSON exactly the JSON rows', async () => {
    for (const params of cases()) {
      const label = JSON.stringify(params);
      const expected = await pagesOfRows(params);
      expect(expected.rows.length, label).toBeGreaterThan(0);
      const csv = await get(`${EXPORT}?${q(params)}`, { key: demo, headers: CSV });
      expectExport(csv, 'csv');
      expect(csv.text === expected.csv, label).toBe(true);
      const ndjson = await get(`${EXPORT}?${q(params)}`, { key: demo, headers: NDJSON });
      expectExport(ndjson, 'ndjson');
      expect(ndjson.text === expected.rows.map((row) => `${JSON.stringify(row)}\n`).join(''), label).toBe(true);
    }
  });

  it('crosses cursor batches: a month of the demo account is several thousand rows, each once', async () => {
    const res = await get(`${EXPORT}?${q({ Filter: `createdAt>=${from()}` })}`, { key: demo, headers: NDJSON });
    const rows = res.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows.length).toBe(5 * 48 * 30);
    expect(new Set(rows.map((r) => `${r.gameId}|${r.createdAt}|${r.country}`)).size).toBe(rows.length);
  });

  it('answers CSV without Accept or for */*, NDJSON when preferred, and 406 naming both otherwise', async () => {
    const params = q({ Filter: `createdAt==${t.today};country==US` });
    for (const accept of [undefined, '*/*', 'text/csv;q=0.9', 'text/*']) {
      const res = await get(`${EXPORT}?${params}`, { key: demo, headers: accept ? { accept } : {} });
      expectExport(res, 'csv');
      expect(res.text.split('\n')[0]).toBe(
        'impressions,clicks,adRequests,cpm,revenueAmount,fillRate,country,createdAt,updatedAt,gameId,userId,adUnitId,gameName',
      );
    }
    const preferred = { accept: 'text/csv;q=0.5, application/x-ndjson' };
    expectExport(await get(`${EXPORT}?${params}`, { key: demo, headers: preferred }), 'ndjson');
    const json = { accept: 'application/json' };
    const refused = expectProblem(await get(`${EXPORT}?${params}`, { key: demo, headers: json }), 406);
    expect(refused.detail).toContain('text/csv, application/x-ndjson');
  });

  it('answers an empty selection with the header line alone (CSV) or nothing (NDJSON)', async () => {
    const params = q({ Filter: `createdAt>${t.today}` });
    const csv = await get(`${EXPORT}?${params}`, { key: demo });
    expectExport(csv, 'csv');
    expect(csv.text).toBe(`${csv.text.split('\n')[0]}\n`);
    const ndjson = await get(`${EXPORT}?${params}`, { key: demo, headers: NDJSON });
    expectExport(ndjson, 'ndjson');
    expect(ndjson.text).toBe('');
  });
});

describe('CSV cells of the export', () => {
  it('guards formulas and quotes commas, quotes and line breaks so that every name round-trips', async () => {
    const user = await createPublisher(t.db);
    const names = [
      '=HYPERLINK("http://evil.example","x")',
      '+1',
      '@SUM(A1)',
      'Comma, "Quote"\nnew line',
      'Plain',
      null,
    ];
    const day = shiftDay(t.today, -1);
    for (const name of names) {
      const site = await createSite(t.db, user.id, { name });
      await createRevenue(t.db, site.id, [
        { day, country: 'US', impressions: 3, adRequests: 7, revenueMicros: 12_345 },
      ]);
    }
    // A row whose import named its own ad unit: it wins over the site's.
    const own = await createSite(t.db, user.id, { name: 'Own unit', adUnitId: 'au-site' });
    await createRevenue(t.db, own.id, [
      { day, country: 'FR', adUnitId: 'au-row' },
      { day, country: 'DE' },
    ]);
    // Timestamps keep microseconds; the export reads them as the paged rows do (milliseconds, truncated).
    await t.db.execute(
      sql`update revenue_daily set updated_at = '2026-01-02 03:04:05.678999+00' where site_id = ${own.id}`,
    );
    const { raw } = await issueKey(user.id);

    const expected = (await pagesOfRows({ sortBy: 'gameName' }, raw)).rows;
    const res = await get(`${EXPORT}?sortBy=gameName`, { key: raw });
    expectExport(res, 'csv');
    expect(res.text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    const records: Record<string, string>[] = parse(res.text, { columns: true });
    expect(records).toHaveLength(expected.length);
    records.forEach((record, i) => {
      const row = expected[i];
      const name: string | null = row.gameName;
      expect(record.gameName).toBe(name === null ? '' : /^[=+\-@]/.test(name) ? `'${name}` : name);
      expect(record.adUnitId).toBe(row.adUnitId ?? '');
      expect(record.updatedAt).toBe(row.updatedAt);
      expect(Number(record.revenueAmount)).toBe(row.revenueAmount);
    });
    const ownRows = expected.filter((row) => row.gameName === 'Own unit');
    expect(ownRows.map((row) => `${row.country}:${row.adUnitId}:${row.updatedAt}`).sort()).toEqual([
      'DE:au-site:2026-01-02T03:04:05.678Z',
      'FR:au-row:2026-01-02T03:04:05.678Z',
    ]);
    const ndjson = await get(`${EXPORT}?sortBy=gameName`, { key: raw, headers: NDJSON });
    expect(ndjson.text).toBe(expected.map((row) => `${JSON.stringify(row)}\n`).join(''));
  });
});

describe('parameters, credentials and the rate limit', () => {
  afterEach(() => vi.restoreAllMocks());

  it('rejects a bad Filter, paging and other unknown parameters with 400 naming them', async () => {
    expectProblem(await get(`${EXPORT}?${q({ Filter: 'gameName=x' })}`, { key: demo }), 400, 'Filter');
    expectProblem(await get(`${EXPORT}?${q({ sortBy: 'siteId' })}`, { key: demo }), 400, 'sortBy');
    const paged = expectProblem(await get(`${EXPORT}?page=2`, { key: demo }), 400, 'page');
    expect(paged.errors[0].detail).toMatch(/unknown query parameter/);
    expectProblem(await get(`${EXPORT}?pageSize=10`, { key: demo }), 400, 'pageSize');
    expectProblem(await get(`${EXPORT}?fromDate=${t.today}`, { key: demo }), 400, 'fromDate');
  });

  it('needs an account-level key: 401 without one, 403 for a site-scoped key', async () => {
    const none = expectProblem(await get(EXPORT), 401);
    expect(none.detail).toMatch(/API key/);
    const scoped = await demoKey({ siteIds: [DEMO_IDS.sites.skyHopper] });
    expectProblem(await get(EXPORT, { key: scoped.raw }), 403);
  });

  it("spends exactly one request of the key's budget, however many rows it streams", async () => {
    const previous = getRateLimitStore();
    setRateLimitStore(createMemoryStore(() => Date.UTC(2026, 5, 1, 10, 0, 1)));
    try {
      const { raw } = await demoKey();
      const remaining = (res: ApiResult) => Number(res.headers.get('x-ratelimit-remaining'));
      const before = await get('/api/v1/sites', { key: raw });
      const exported = await get(`${EXPORT}?${q({ Filter: `createdAt>=${shiftDay(t.today, -29)}` })}`, { key: raw });
      expect(exported.text.split('\n').length).toBeGreaterThan(7000);
      const after = await get('/api/v1/sites', { key: raw });
      expect([remaining(before) - remaining(exported), remaining(exported) - remaining(after)]).toEqual([1, 1]);
    } finally {
      setRateLimitStore(previous);
    }
  });
});

describe('streaming', () => {
  afterEach(() => setDatabase(t.database));

  /** The route called directly, so that a test can read the body chunk by chunk. */
  const call = (query: string, key = demo) => {
    const headers = { 'X-Api-Key': key, [CLIENT_ADDRESS_HEADER]: 'test-stream' };
    return exportRoute.GET(new Request(`http://localhost${EXPORT}?${query}`, { headers }), {
      params: Promise.resolve({}),
    });
  };

  it('gives the connection back when the client goes away mid-stream', async () => {
    const query = q({ Filter: `createdAt>=${shiftDay(t.today, -59)}` });
    // More abandoned exports than the test pool has connections (5): a leaked one would make the next hang.
    for (let i = 0; i < 7; i++) {
      const res = await call(query);
      const reader = res.body!.getReader();
      expect((await reader.read()).value!.length).toBeGreaterThan(0);
      await reader.cancel();
    }
    const whole = await get(`${EXPORT}?${q({ Filter: `createdAt==${t.today}` })}`, { key: demo, headers: NDJSON });
    expect(whole.text.trimEnd().split('\n')).toHaveLength(5 * 48);
  });

  it('errors the body, never ends it cleanly, when the database fails after the first bytes', async () => {
    const failing: RunStream = async function* (query, options) {
      let batches = 0;
      for await (const batch of t.database.stream(query, options)) {
        if (++batches > 2) throw new Error('connection lost mid-export');
        yield batch;
      }
    };
    setDatabase({ ...t.database, stream: failing });
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await call(q({ Filter: `createdAt>=${shiftDay(t.today, -29)}` }));
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    const failed = loggedLines(quiet).find((line) => line.msg === 'streamed response failed');
    expect(failed?.err?.message).toMatch(/connection lost mid-export/);
    quiet.mockRestore();
    setDatabase(t.database);
    // The connection came back: the same export now completes.
    const again = await get(`${EXPORT}?${q({ Filter: `createdAt>=${shiftDay(t.today, -29)}` })}`, { key: demo });
    expect(again.text.trimEnd().split('\n')).toHaveLength(1 + 5 * 48 * 30);
  });
});

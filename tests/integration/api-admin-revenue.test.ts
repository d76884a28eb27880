/**
 * POST /api/v1/admin/revenue: the import for pipelines. Same validation and upsert as the CLI (tested in
 * revenue-import.test.ts); here the HTTP side: who may call it, media types, limits, and the answers.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { INGEST_MAX_ROWS } from '@/lib/revenue-in/ingest';
import { callApi } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { adminKey, issueKey } from '../support/keys';
import { expectProblem, sqlRows } from './reports-helpers';
import { expectRollupMatchesDaily } from './rollup-helpers';

const t = useTestDatabase();
const HEADER = 'day,siteId,country,impressions,clicks,adRequests,revenue';
let admin: string;
let site: string;
let ownerId: string;

beforeAll(async () => {
  admin = (await adminKey()).raw;
  const owner = await createPublisher(t.db);
  ownerId = owner.id;
  site = (await createSite(t.db, owner.id)).id;
});

const post = (body: string, contentType: string | null, key = admin, query = '') =>
  callApi('POST', `/api/v1/admin/revenue${query}`, {
    key,
    body,
    headers: contentType ? { 'Content-Type': contentType } : {},
  });

describe('POST /api/v1/admin/revenue', () => {
  it("imports CSV and NDJSON for an operator's key and answers with the summary", async () => {
    const res = await post(
      `${HEADER}\n2025-09-01,${site},US,10,1,12,1.25\n2025-09-02,${site},US,11,1,12,1.5\n`,
      'text/csv; charset=utf-8',
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ rows: 2, inserted: 2, updated: 0, unchanged: 0, sitesCreated: 0 });
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();

    const ndjson = JSON.stringify({
      day: '2025-09-02',
      siteId: site,
      country: 'US',
      impressions: 11,
      clicks: 1,
      adRequests: 12,
      revenue: '1.5',
    });
    const again = await post(ndjson, 'application/x-ndjson');
    expect(again.status, again.text).toBe(200);
    expect(again.json).toMatchObject({ rows: 1, inserted: 0, updated: 0, unchanged: 1 });
    await expectRollupMatchesDaily(t.db, [ownerId]);
  });

  it('answers 400 listing every bad line (line, column, reason), and imports nothing', async () => {
    const res = await post(
      `${HEADER}\n2025-09-10,${site},US,10,1,12,1\n2025-09-11,${site},ZZ,1,0,1,1\n2025-09-12,not-a-uuid,US,1,0,1,1\n`,
      'text/csv',
    );
    expectProblem(res, 400);
    expect(res.json.errorCount).toBe(2);
    expect(res.json.errors).toEqual([
      { parameter: 'country', line: 3, detail: expect.stringContaining('"ZZ"') },
      { parameter: 'siteId', line: 4, detail: expect.stringContaining('not-a-uuid') },
    ]);
    expect(res.json.detail).toMatch(/^2 bad lines in the body\. Nothing was imported\.$/);
    const rows = await sqlRows(t.db, sql`select 1 from revenue_daily where site_id = ${site} and day = '2025-09-10'`);
    expect(rows).toEqual([]);
  });

  it('is for account-level admin keys only', async () => {
    const body = `${HEADER}\n2025-09-20,${site},US,1,0,1,1\n`;
    const publisher = await issueKey(ownerId);
    expectProblem(await post(body, 'text/csv', publisher.raw), 403);
    expect((await post(body, 'text/csv', 'rpk_nope')).status).toBe(401);
  });

  it('answers 415 for other media types and 413 past the row limit', async () => {
    const unsupported = await post('{}', 'application/json');
    expectProblem(unsupported, 415);
    expect(unsupported.headers.get('accept-post')).toBe('text/csv, application/x-ndjson');
    expectProblem(await post('x', null), 415);

    const line = `2025-09-21,${site},US,1,0,1,1\n`;
    const tooMany = await post(HEADER + '\n' + line.repeat(INGEST_MAX_ROWS + 1), 'text/csv');
    expectProblem(tooMany, 413);
    expect(tooMany.json.detail).toMatch(/at most 50,000 rows/);
  });

  it('rejects unknown query parameters like every endpoint, and accepts owner', async () => {
    expectProblem(await post(`${HEADER}\n`, 'text/csv', admin, '?bogus=1'), 400, 'bogus');
    const named = `day,siteName,country,impressions,clicks,adRequests,revenue\n2025-09-22,Nope,US,1,0,1,1\n`;
    const res = await post(named, 'text/csv', admin, '?owner=nobody@example.invalid');
    expectProblem(res, 400);
    expect(res.json.errors[0]).toMatchObject({ parameter: 'owner' });
  });
});

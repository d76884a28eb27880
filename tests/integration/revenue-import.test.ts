/**
 * The one revenue write path (lib/revenue-in/import.ts and lib/revenue-in/write.ts), as the CLI and the admin
 * ingestion endpoint use it: upsert counts, re-import as a no-op, all-or-nothing with every bad line
 * reported, sites by id or by name (and created on request), and the rollup and reports kept exact.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addRevenueMonths } from '@/db/revenue-months';
import type { LineError } from '@/lib/revenue-in/parse';
import { COMMAND_LINE } from '@/lib/access/principal';
import { importRevenue, type ImportOptions } from '@/lib/revenue-in/import';
import { get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey } from '../support/keys';
import { micros, q, sqlRows, sqlSums } from './reports-helpers';
import { expectRollupMatchesDaily } from './rollup-helpers';

const t = useTestDatabase();

const HEADER = 'day,siteId,country,impressions,clicks,adRequests,revenue,adUnitId';
const csv = (...lines: string[]) => [HEADER, ...lines].join('\n') + '\n';
const run = (text: string, options: Partial<ImportOptions> = {}) =>
  importRevenue(COMMAND_LINE, [text], { format: 'csv', ...options });

async function dailyRows(siteIds: string[]) {
  return sqlRows<Record<string, string>>(
    t.db,
    sql`select site_id, day::text, trim(country) as country, impressions::text, clicks::text, ad_requests::text,
      revenue_micros::text, ad_unit_id from revenue_daily where site_id = any(${`{${siteIds.join(',')}}`}::uuid[])
      order by day, country, site_id`,
  );
}

async function publisherWithSites(n: number) {
  const owner = await createPublisher(t.db);
  const sites = [];
  for (let i = 0; i < n; i++) sites.push(await createSite(t.db, owner.id, { name: `Import Game ${i}` }));
  return { owner, sites };
}

describe('importing a file', () => {
  it('inserts, then changes nothing on a re-import, then updates only what differs', async () => {
    const { owner, sites } = await publisherWithSites(2);
    const [a, b] = sites.map((s) => s.id);
    const file = csv(
      `2025-03-30,${a},US,1000,12,1500,12.345678,au-1`,
      `2025-03-31,${a},US,900,10,1400,9.5,au-1`,
      `2025-04-01,${a},DE,500,3,800,0.000001,`,
      `2025-04-01,${b},US,7,0,9,0,au-2`,
    );
    const first = await run(file);
    expect(first.ok && first.summary).toMatchObject({
      rows: 4,
      inserted: 4,
      updated: 0,
      unchanged: 0,
      sitesCreated: 0,
    });
    const stored = await dailyRows([a, b]);
    expect(stored.map((r) => [r.day, r.country, r.revenue_micros, r.ad_unit_id])).toEqual([
      ['2025-03-30', 'US', '12345678', 'au-1'],
      ['2025-03-31', 'US', '9500000', 'au-1'],
      ['2025-04-01', 'DE', '1', null],
      ['2025-04-01', 'US', '0', 'au-2'],
    ]);

    // Each row in its month's partition, which the import made: the file's months are long past.
    const months = await sqlRows<{ month: string }>(
      t.db,
      sql`select distinct tableoid::regclass::text as month from revenue_daily
          where site_id = any(${`{${a},${b}}`}::uuid[]) order by 1`,
    );
    expect(months.map((m) => m.month)).toEqual(['revenue_daily_2025_03', 'revenue_daily_2025_04']);

    const again = await run(file);
    expect(again.ok && again.summary).toMatchObject({ rows: 4, inserted: 0, updated: 0, unchanged: 4 });
    expect(await dailyRows([a, b])).toEqual(stored);

    const changed = await run(
      csv(
        `2025-03-31,${a},US,901,10,1400,9.5,au-1`,
        `2025-04-02,${b},US,1,0,1,1,au-2`,
        `2025-04-01,${b},US,7,0,9,0,au-2`,
      ),
    );
    expect(changed.ok && changed.summary).toMatchObject({ rows: 3, inserted: 1, updated: 1, unchanged: 1 });
    await expectRollupMatchesDaily(t.db, [owner.id]);

    // The API reports what was imported, to the micro-dollar.
    const { raw } = await issueKey(owner.id);
    const totals = await get(`/api/v1/reports/totals?${q({ fromDate: '2025-03-01', toDate: '2025-04-30' })}`, {
      key: raw,
    });
    const sums = await sqlSums(t.db, [a, b], '2025-03-01', '2025-04-30');
    expect([totals.json.totalImpressions, micros(totals.json.totalRevenue)]).toEqual([
      sums.impressions,
      sums.revenueMicros,
    ]);
    expect(sums.revenueMicros).toBe(12_345_678 + 9_500_000 + 1 + 1_000_000);
  });

  it('applies nothing when any line is bad, and reports every bad line with its line and field', async () => {
    const { sites } = await publisherWithSites(1);
    const site = sites[0].id;
    const seen: LineError[] = [];
    const result = await run(
      csv(
        `2025-05-01,${site},US,10,1,20,1.5,`,
        `2025-05-02,${site},US,10,1,5,1.5,`, // impressions > adRequests
        `2025-05-03,0badc0de-0000-4000-8000-000000000000,US,1,0,1,1,`, // unknown site
        `2025-05-04,${site},XX,1,0,1,1,`, // not a country
        `2025-05-05,${site},US,1,0,1,1.1234567,`, // 7 decimals
      ),
      { onError: (e) => seen.push(e) },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errorCount).toBe(4);
    expect(result.errors.map((e) => [e.line, e.field])).toEqual([
      [3, 'impressions'],
      [4, 'siteId'],
      [5, 'country'],
      [6, 'revenue'],
    ]);
    expect(seen).toHaveLength(4);
    expect(await dailyRows([site])).toEqual([]);
  });

  it('refuses a key given twice, naming both lines, and keeps what was there', async () => {
    const { sites } = await publisherWithSites(1);
    const site = sites[0].id;
    await run(csv(`2025-06-01,${site},US,1,0,1,1,`));
    const result = await run(
      csv(`2025-06-01,${site},US,2,0,2,2,`, `2025-06-02,${site},US,1,0,1,1,`, `2025-06-01,${site},us,3,0,3,3,`),
    );
    expect(result.ok ? null : result.errors).toEqual([
      { line: 4, field: 'line', detail: 'repeats the site, day and country of line 2' },
    ]);
    expect((await dailyRows([site])).map((r) => r.impressions)).toEqual(['1']);

    // One of the two lines equal to the stored row, the other not: still ambiguous, still refused.
    const stored = await run(csv(`2025-06-01,${site},US,1,0,1,1,`, `2025-06-01,${site},US,5,0,5,5,`));
    expect(stored.ok ? null : stored.errors).toEqual([
      { line: 3, field: 'line', detail: 'repeats the site, day and country of line 2' },
    ]);
    expect((await dailyRows([site])).map((r) => r.impressions)).toEqual(['1']);
  });

  it('names sites within an owner, creates missing ones on request, and never writes to another account', async () => {
    const { owner, sites } = await publisherWithSites(1);
    const other = await publisherWithSites(1);
    const named = [
      'day,siteName,country,impressions,clicks,adRequests,revenue',
      `2025-07-01,Import Game 0,US,5,0,6,0.5`,
      `2025-07-01,Brand New Game,FR,3,0,4,0.25`,
    ].join('\n');

    const noOwner = await run(named);
    expect(noOwner.ok ? null : noOwner.errors.map((e) => [e.line, e.field])).toEqual([
      [2, 'siteName'],
      [3, 'siteName'],
    ]);
    const missing = await run(named, { owner: owner.email });
    expect(missing.ok ? null : missing.errors).toEqual([
      {
        line: 3,
        field: 'siteName',
        detail: 'the account has no site named Brand New Game, and --create-sites was not given',
      },
    ]);
    const created = await run(named, { owner: owner.email, createSites: true });
    expect(created.ok && created.summary).toMatchObject({ rows: 2, inserted: 2, sitesCreated: 1 });
    const [newSite] = await sqlRows<{ id: string; status: string }>(
      t.db,
      sql`select id, status::text from sites where user_id = ${owner.id} and name = 'Brand New Game'`,
    );
    expect(newSite.status).toBe('live');
    expect((await dailyRows([sites[0].id, newSite.id])).map((r) => r.country)).toEqual(
      expect.arrayContaining(['US', 'FR']),
    );

    // A site id of another account is refused when an owner is named.
    const foreign = await run(csv(`2025-07-02,${other.sites[0].id},US,1,0,1,1,`), { owner: owner.email });
    expect(foreign.ok ? null : foreign.errors[0]).toMatchObject({
      line: 2,
      field: 'siteId',
      detail: expect.stringMatching(/another account/),
    });
    const unknownOwner = await run(named, { owner: 'nobody@example.invalid' });
    expect(unknownOwner.ok ? null : unknownOwner.errors[0].field).toBe('owner');
    await expectRollupMatchesDaily(t.db, [owner.id, other.owner.id]);
  });

  it('reads NDJSON the same way', async () => {
    const { sites } = await publisherWithSites(1);
    const site = sites[0].id;
    const ndjson = [
      { day: '2025-08-01', siteId: site, country: 'JP', impressions: 3, clicks: 0, adRequests: 4, revenue: '0.3' },
      {
        createdAt: '2025-08-02T00:00:00.000Z',
        gameId: site,
        country: 'jp',
        impressions: 5,
        clicks: 1,
        adRequests: 5,
        revenueAmount: 0.5,
      },
    ]
      .map((o) => JSON.stringify(o))
      .join('\n');
    const result = await importRevenue(COMMAND_LINE, [ndjson], { format: 'ndjson' });
    expect(result.ok && result.summary).toMatchObject({ rows: 2, inserted: 2 });
    expect((await dailyRows([site])).map((r) => [r.day, r.revenue_micros])).toEqual([
      ['2025-08-01', '300000'],
      ['2025-08-02', '500000'],
    ]);
  });

  it('writes a row only into a month that was made, and making a month twice changes nothing', async () => {
    const { owner, sites } = await publisherWithSites(1);
    const insert = sql`insert into revenue_daily (site_id, user_id, day, country) values (${sites[0].id}, ${owner.id}, '2003-05-06', 'US')`;
    await expect(t.db.execute(insert)).rejects.toThrow();
    await addRevenueMonths(t.db, '2003-05-31', '2003-05-01');
    await addRevenueMonths(t.db, '2003-04-30', '2003-05-01');
    const made = sql`select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound from pg_inherits i
                     join pg_class c on c.oid = i.inhrelid where i.inhparent = 'revenue_daily'::regclass
                     and c.relname like 'revenue_daily_2003%' order by 1`;
    expect(await sqlRows(t.db, made)).toEqual([
      { name: 'revenue_daily_2003_04', bound: "FOR VALUES FROM ('2003-04-01') TO ('2003-05-01')" },
      { name: 'revenue_daily_2003_05', bound: "FOR VALUES FROM ('2003-05-01') TO ('2003-06-01')" },
    ]);
    await t.db.execute(insert);
    await expectRollupMatchesDaily(t.db, [owner.id]);
  });

  it('is for the command line and operators only', async () => {
    const { owner } = await publisherWithSites(1);
    const publisher = { userId: owner.id, role: 'publisher', siteScope: null, via: 'session' } as const;
    await expect(importRevenue(publisher, [csv()], { format: 'csv' })).rejects.toMatchObject({ code: 'forbidden' });
  });
});

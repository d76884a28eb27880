/**
 * A file large enough that the import compares it with the stored rows by merging both sides
 * (lib/revenue-in/write.ts, MERGE_FROM_ROWS): the counts stay exact, a re-sent file writes nothing (the data
 * version stays), and a file that changes a few rows among many updates exactly those.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '@/db/schema';
import { OPERATOR } from '@/lib/accounts/principal';
import { importRevenue } from '@/lib/revenue-in/import';
import { MERGE_FROM_ROWS } from '@/lib/revenue-in/write';
import { COUNTRIES } from '@/lib/shared/countries';
import { addDays } from '@/lib/query';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { sqlRows } from './reports-helpers';
import { expectRollupMatchesDaily } from './rollup-helpers';

const t = useTestDatabase();

const run = (lines: string[]) =>
  importRevenue(OPERATOR, [['day,siteId,country,impressions,clicks,adRequests,revenue', ...lines].join('\n')], {
    format: 'csv',
  });

const versionOf = async (userId: string) =>
  (await t.db.select({ v: users.dataVersion }).from(users).where(eq(users.id, userId)))[0].v;

describe('importing a large file', () => {
  it('inserts it, changes nothing when it is sent again, and then updates only the rows that differ', async () => {
    const owner = await createPublisher(t.db);
    const sites = [await createSite(t.db, owner.id), await createSite(t.db, owner.id)];
    const countries = COUNTRIES.slice(0, 50).map((c) => c.code);
    const line = (site: string, day: string, country: string, impressions: number) =>
      `${day},${site},${country},${impressions},1,${impressions + 5},${(impressions / 1000).toFixed(6)}`;
    const lines: string[] = [];
    for (const { id } of sites) {
      for (let d = 0; d < 110; d++) {
        for (const country of countries) lines.push(line(id, addDays('2025-01-01', d), country, 100 + d));
      }
    }
    expect(lines.length).toBeGreaterThanOrEqual(MERGE_FROM_ROWS);

    const first = await run(lines);
    expect(first.ok && first.summary).toMatchObject({ rows: lines.length, inserted: lines.length, updated: 0 });
    const version = await versionOf(owner.id);

    const again = await run(lines);
    expect(again.ok && again.summary).toMatchObject({ inserted: 0, updated: 0, unchanged: lines.length });
    expect(await versionOf(owner.id)).toBe(version);

    // The first 7 lines changed, 3 new days at the end, everything else as stored.
    const [site] = sites.map((s) => s.id);
    const edited = lines.map((l, i) => (i < 7 ? l.replace(/,1,/, ',2,') : l));
    const added = countries.slice(0, 3).map((country) => line(site, '2025-04-21', country, 9));
    const third = await run([...edited, ...added]);
    expect(third.ok && third.summary).toMatchObject({ inserted: 3, updated: 7, unchanged: lines.length - 7 });
    expect(await versionOf(owner.id)).toBeGreaterThan(version);

    const [clicks] = await sqlRows<{ clicks: string; rows: string }>(
      t.db,
      sql`select sum(clicks)::text as clicks, count(*)::text as rows from revenue_daily where user_id = ${owner.id}`,
    );
    expect(clicks).toEqual({ clicks: String(lines.length + 7 + 3), rows: String(lines.length + 3) });
    await expectRollupMatchesDaily(t.db, [owner.id]);
  });
});

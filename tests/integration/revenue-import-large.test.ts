/**
 * A file that holds most of its days' stored rows, which the import compares with them by merging both sides, and
 * one that holds a few rows spread over many days, which it looks up one by one (lib/revenue-in/write.ts,
 * MERGE_FROM_SHARE): the counts stay exact, a re-sent file writes nothing (the data version stays), and a file
 * that changes a few rows among many updates exactly those.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '@/db/schema';
import { COMMAND_LINE } from '@/lib/access/principal';
import { importRevenue } from '@/lib/revenue-in/import';
import { COUNTRIES } from '@/lib/shared/countries';
import { addDays } from '@/lib/query';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { sqlRows } from './reports-helpers';
import { expectRollupMatchesDaily } from './rollup-helpers';

const t = useTestDatabase();

const run = (lines: string[]) =>
  importRevenue(COMMAND_LINE, [['day,siteId,country,impressions,clicks,adRequests,revenue', ...lines].join('\n')], {
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

    const first = await run(lines);
    expect(first.ok && first.summary).toMatchObject({ rows: lines.length, inserted: lines.length, updated: 0 });
    const version = await versionOf(owner.id);

    const again = await run(lines);
    expect(again.ok && again.summary).toMatchObject({ inserted: 0, updated: 0, unchanged: lines.length });
    expect(await versionOf(owner.id)).toBe(version);

    // The same with its last line given again, changed: which one wins is not for the import to guess.
    const repeated = await run([...lines, lines.at(-1)!.replace(/,1,/, ',4,')]);
    expect(repeated.ok ? null : repeated.errors).toEqual([
      {
        line: lines.length + 2,
        field: 'line',
        detail: `repeats the site, day and country of line ${lines.length + 1}`,
      },
    ]);
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

    // A few corrections over the whole range: two of the five differ.
    const sparse = [0, 0.25, 0.5, 0.75, 1].map((at) => lines[Math.round(at * (lines.length - 1))]);
    const corrected = sparse.map((l, i) => (i < 2 ? l.replace(/,1,/, ',3,') : l));
    const fourth = await run(corrected);
    expect(fourth.ok && fourth.summary).toMatchObject({ inserted: 0, updated: 2, unchanged: 3 });
    await expectRollupMatchesDaily(t.db, [owner.id]);
  });
});

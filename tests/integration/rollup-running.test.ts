/**
 * The rollup's running totals (grain c, db/migrations/0022_rollup_running_totals.sql): each write recomputes a site's
 * totals from the first day it wrote, so they must stay exact when a past day changes, when a site's days have gaps,
 * when a country starts late or leaves, and when two writers of one site overlap (PostgreSQL: they take turns, and
 * the second reads what the first committed).
 */
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addRevenueMonths } from '@/db/revenue-months';
import { testDatabase, useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { expectRollupMatchesDaily } from './rollup-helpers';
import { sqlRows } from './reports-helpers';

const t = useTestDatabase();
const source = testDatabase();

/** A site's running totals of revenue on `day`, by country. */
const runningOn = (siteId: string, day: string) =>
  sqlRows<{ country: string; revenue_micros: string; rows: string }>(
    t.db,
    sql`select trim(country) as country, revenue_micros::text, rows::text from revenue_rollup
      where grain = 'c' and site_id = ${siteId} and period = ${day}::date order by country`,
  );

describe('running totals by site and country', () => {
  it('carry every country forward to each day the site has rows, through corrections, gaps and deletes', async () => {
    const owner = await createPublisher(t.db);
    const site = await createSite(t.db, owner.id);
    await createRevenue(t.db, site.id, [
      { day: '2025-01-30', country: 'US', revenueMicros: 1 },
      { day: '2025-01-31', country: 'DE', revenueMicros: 10 },
      // A gap of a month: no rows of this site in between, so no running rows either.
      { day: '2025-03-02', country: 'US', revenueMicros: 100 },
    ]);
    await expectRollupMatchesDaily(t.db, [owner.id]);
    // DE had rows by then, so it has its row on 2025-03-02 although that day has none of its own.
    expect(await runningOn(site.id, '2025-03-02')).toEqual([
      { country: 'DE', revenue_micros: '10', rows: '1' },
      { country: 'US', revenue_micros: '101', rows: '2' },
    ]);
    expect(await runningOn(site.id, '2025-02-15')).toEqual([]);

    // Two new days of US alone: DE carries its totals onto both.
    await createRevenue(t.db, site.id, [
      { day: '2025-03-03', country: 'US', revenueMicros: 1000 },
      { day: '2025-03-04', country: 'US', revenueMicros: 10000 },
    ]);
    await expectRollupMatchesDaily(t.db, [owner.id]);
    expect(await runningOn(site.id, '2025-03-04')).toEqual([
      { country: 'DE', revenue_micros: '10', rows: '1' },
      { country: 'US', revenue_micros: '11101', rows: '4' },
    ]);
    await t.db.execute(sql`delete from revenue_daily where site_id = ${site.id} and day > '2025-03-02'`);

    // A correction of the first day changes every later total; a new first day adds a country to all of them.
    await t.db.execute(
      sql`update revenue_daily set revenue_micros = 5 where site_id = ${site.id} and day = '2025-01-30'`,
    );
    await createRevenue(t.db, site.id, [{ day: '2025-01-02', country: 'FR', revenueMicros: 1000 }]);
    await expectRollupMatchesDaily(t.db, [owner.id]);
    expect(await runningOn(site.id, '2025-03-02')).toEqual([
      { country: 'DE', revenue_micros: '10', rows: '1' },
      { country: 'FR', revenue_micros: '1000', rows: '1' },
      { country: 'US', revenue_micros: '105', rows: '2' },
    ]);

    // DE's only row goes: it is in no running row any more; the site's last day goes: so do its running rows.
    await t.db.execute(sql`delete from revenue_daily where site_id = ${site.id} and country = 'DE'`);
    await t.db.execute(sql`delete from revenue_daily where site_id = ${site.id} and day = '2025-03-02'`);
    await expectRollupMatchesDaily(t.db, [owner.id]);
    expect(await runningOn(site.id, '2025-03-02')).toEqual([]);
    expect(await runningOn(site.id, '2025-01-31')).toEqual([]);
    expect((await runningOn(site.id, '2025-01-30')).map((r) => r.country)).toEqual(['FR', 'US']);
  });

  it.runIf(source.kind === 'postgres')(
    'stay exact when two transactions write one site at once: the second waits for the first and reads its rows',
    async () => {
      const owner = await createPublisher(t.db);
      const site = await createSite(t.db, owner.id);
      await createRevenue(t.db, site.id, [{ day: '2025-02-01', country: 'US', revenueMicros: 7 }]);
      await addRevenueMonths(t.db, '2025-01-01', '2025-03-31');
      if (source.kind !== 'postgres') return;
      const client = postgres(source.url, { max: 2, onnotice: () => {} });
      const [first, second] = [await client.reserve(), await client.reserve()];
      const insert = (connection: postgres.ReservedSql, day: string, micros: number) =>
        connection`insert into revenue_daily (site_id, user_id, day, country, revenue_micros)
          values (${site.id}, ${owner.id}, ${day}, 'US', ${micros})`;
      try {
        await first`begin`;
        await insert(first, '2025-03-10', 100);
        await second`begin`;
        // An earlier day, in another month: only the site's running totals are shared, so only their lock waits.
        // postgres.js sends a query when it is awaited or executed: this one must be on its way before the poll.
        const waiting = insert(second, '2025-01-15', 20).execute();
        await expect
          .poll(async () => {
            const [row] = await sqlRows<{ n: string }>(
              t.db,
              sql`select count(*) as n from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`,
            );
            return Number(row.n);
          })
          .toBe(1);
        await first`commit`;
        await waiting;
        await second`commit`;
      } finally {
        first.release();
        second.release();
        await client.end();
      }
      await expectRollupMatchesDaily(t.db, [owner.id]);
      expect(await runningOn(site.id, '2025-03-10')).toEqual([{ country: 'US', revenue_micros: '127', rows: '3' }]);
    },
  );
});

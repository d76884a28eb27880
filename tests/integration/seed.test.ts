import { verify } from '@node-rs/argon2';
import { and, asc, between, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Db, openPglite } from '@/db/client';
import { migrate } from '@/db/migrate';
import { memberships, people, revenueDaily, sites, users } from '@/db/schema';
import { compactRollup, withoutSecondaryIndexes } from '@/db/bulk';
import { catalogQuery, DEMO_DAYS, DEMO_IDS, DEMO_PASSWORD, seedDemo } from '@/db/seed';
import { DEMO_SITES, dayNumber, dayString, revenueFor } from '@/db/seed-data';
import { COUNTRIES } from '@/lib/shared/countries';
import { asOwner, useTestDatabase } from '../support/db';
import { rows } from '../support/migrations';
import { createPublisher, createRevenue, createSite } from '../support/factories';

const t = useTestDatabase();
const demoSiteIds = Object.values(DEMO_IDS.sites);
const ofDemoSites = inArray(revenueDaily.siteId, demoSiteIds);

/** Per site and day sums: enough to tell two seeded databases apart. */
async function dailySums(db: Db, fromDay: string, toDay: string) {
  return db
    .select({
      siteId: revenueDaily.siteId,
      day: revenueDaily.day,
      rows: sql<number>`count(*)::int`,
      adRequests: sql<string>`sum(${revenueDaily.adRequests})::text`,
      impressions: sql<string>`sum(${revenueDaily.impressions})::text`,
      clicks: sql<string>`sum(${revenueDaily.clicks})::text`,
      revenueMicros: sql<string>`sum(${revenueDaily.revenueMicros})::text`,
    })
    .from(revenueDaily)
    .where(and(ofDemoSites, sql`${revenueDaily.day} between ${fromDay} and ${toDay}`))
    .groupBy(revenueDaily.siteId, revenueDaily.day)
    .orderBy(asc(revenueDaily.siteId), asc(revenueDaily.day));
}

describe('demo seed', () => {
  it('has the three demo users with their roles and argon2id hashes of the demo password', async () => {
    const rows = await t.db
      .select()
      .from(users)
      .where(inArray(users.email, ['demo@example.com', 'rival@example.com', 'admin@example.com']))
      .orderBy(asc(users.email));
    expect(rows.map((u) => [u.email, u.role, u.id])).toEqual([
      ['admin@example.com', 'admin', DEMO_IDS.users.admin],
      ['demo@example.com', 'publisher', DEMO_IDS.users.demo],
      ['rival@example.com', 'publisher', DEMO_IDS.users.rival],
    ]);
    // Each account's Owner is a person of the same id and e-mail who signs in with the demo password.
    for (const user of rows) {
      const [person] = await t.db.select().from(people).where(eq(people.id, user.id));
      expect(person.email).toBe(user.email);
      expect(person.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await verify(person.passwordHash, DEMO_PASSWORD)).toBe(true);
      expect(await verify(person.passwordHash, 'wrong-password')).toBe(false);
      const [membership] = await t.db.select().from(memberships).where(eq(memberships.personId, user.id));
      expect(membership).toMatchObject({ accountId: user.id, role: 'owner' });
    }
  });

  it('gives the demo publisher sites in every status, the rival a few, the operator none', async () => {
    const rows = await t.db.select().from(sites).where(inArray(sites.id, demoSiteIds));
    const of = (userId: string) => rows.filter((s) => s.userId === userId);
    expect(of(DEMO_IDS.users.demo).length).toBeGreaterThanOrEqual(5);
    expect(new Set(of(DEMO_IDS.users.demo).map((s) => s.status))).toEqual(new Set(['live', 'approved', 'pending']));
    expect(of(DEMO_IDS.users.rival).length).toBeGreaterThanOrEqual(2);
    const adminSites = await t.db.select().from(sites).where(eq(sites.userId, DEMO_IDS.users.admin));
    expect(adminSites).toEqual([]);
    for (const site of rows) {
      expect(site).toMatchObject({ name: expect.any(String), url: expect.stringMatching(/^https:\/\//) });
      expect(site.framework).toMatch(/^(unity|phaser|construct|godot|pixijs)$/);
      expect(site.dailyActiveUsers).toBeLessThan(site.monthlyActiveUsers!);
      expect(site.adUnitId).toBeTruthy();
    }
  });

  it('has one row per site, country and day for the last year, ending today', async () => {
    const firstDay = dayString(dayNumber(t.today) - DEMO_DAYS + 1);
    const perSite = await t.db
      .select({
        siteId: revenueDaily.siteId,
        rows: sql<number>`count(*)::int`,
        days: sql<number>`count(distinct ${revenueDaily.day})::int`,
        countries: sql<number>`count(distinct ${revenueDaily.country})::int`,
        firstDay: sql<string>`min(${revenueDaily.day})::text`,
        lastDay: sql<string>`max(${revenueDaily.day})::text`,
        addedBeforeData: sql<boolean>`min(${sites.createdAt}) < min(${revenueDaily.day})`,
      })
      .from(revenueDaily)
      .innerJoin(sites, eq(sites.id, revenueDaily.siteId))
      .where(ofDemoSites)
      .groupBy(revenueDaily.siteId);
    expect(perSite).toHaveLength(demoSiteIds.length);
    for (const site of perSite) {
      expect(site).toMatchObject({ days: DEMO_DAYS, countries: COUNTRIES.length, firstDay, lastDay: t.today });
      expect(site).toMatchObject({ rows: DEMO_DAYS * COUNTRIES.length, addedBeforeData: true });
    }
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(40);
  });

  it('puts revenue_daily’s indexes and foreign key back valid and on every month after a bulk load', async () => {
    // The seeds load with them set aside (db/bulk.ts). Made again `ON ONLY` the parent, as the catalog spells a
    // partitioned index, they were invalid and no month had them: the rows report scanned whole months.
    const before = await revenueDailyIndexes();
    // Dropping and making indexes is the tables' owner's, as the seeds run.
    await asOwner(t, (db) =>
      db.transaction((tx) =>
        withoutSecondaryIndexes(catalogQuery(tx as unknown as Db), 'revenue_daily', async () => {}),
      ),
    );
    const after = await revenueDailyIndexes();
    expect(after.parent).toEqual(before.parent);
    expect(after.parent).toHaveLength(8);
    expect(after.parent.filter((index) => !index.valid)).toEqual([]);
    expect(after.months.length).toBeGreaterThanOrEqual(12);
    for (const month of after.months) expect(month).toMatchObject({ indexes: 8, foreignKeys: 1 });
  });

  it('has realistic fill rates, click rates and CPMs, and a few days without impressions', async () => {
    const [stats] = await t.db
      .select({
        noRequests: sql<number>`count(*) filter (where ${revenueDaily.adRequests} <= 0)::int`,
        fillOutOfRange: sql<number>`count(*) filter (where ${revenueDaily.impressions} > 0 and
          (${revenueDaily.impressions}::float8 / ${revenueDaily.adRequests} not between 0.6 and 0.98))::int`,
        zeroDays: sql<number>`count(*) filter (where ${revenueDaily.impressions} = 0)::int`,
        zeroDaysWithMoney: sql<number>`count(*) filter (where ${revenueDaily.impressions} = 0 and
          (${revenueDaily.revenueMicros} <> 0 or ${revenueDaily.clicks} <> 0))::int`,
        ctr: sql<number>`(sum(${revenueDaily.clicks})::float8 / sum(${revenueDaily.impressions}))`,
        cpm: sql<number>`(sum(${revenueDaily.revenueMicros})::float8 / sum(${revenueDaily.impressions}) / 1000)`,
        futureUpdates: sql<number>`count(*) filter (where ${revenueDaily.updatedAt} > now())::int`,
      })
      .from(revenueDaily)
      .where(ofDemoSites);
    expect(stats).toMatchObject({ noRequests: 0, fillOutOfRange: 0, zeroDaysWithMoney: 0, futureUpdates: 0 });
    expect(stats.zeroDays).toBeGreaterThan(0);
    expect(stats.zeroDays).toBeLessThan(DEMO_DAYS * COUNTRIES.length * 0.02 * demoSiteIds.length);
    expect(Number(stats.ctr)).toBeGreaterThan(0.005);
    expect(Number(stats.ctr)).toBeLessThan(0.02);
    expect(Number(stats.cpm)).toBeGreaterThan(1);
    expect(Number(stats.cpm)).toBeLessThan(20);

    // Premium markets pay more per impression, and people play more at the weekend.
    const cpmOf = async (codes: string[]) => {
      const [row] = await t.db
        .select({ cpm: sql<number>`sum(${revenueDaily.revenueMicros})::float8 / sum(${revenueDaily.impressions})` })
        .from(revenueDaily)
        .where(and(ofDemoSites, inArray(revenueDaily.country, codes)));
      return Number(row.cpm);
    };
    const tier = (n: number) => COUNTRIES.filter((c) => c.tier === n).map((c) => c.code);
    expect(await cpmOf(tier(1))).toBeGreaterThan(2 * (await cpmOf(tier(3))));
    const [week] = await t.db
      .select({
        weekend: sql<number>`avg(${revenueDaily.adRequests}) filter (where extract(isodow from ${revenueDaily.day}) >= 6)`,
        weekday: sql<number>`avg(${revenueDaily.adRequests}) filter (where extract(isodow from ${revenueDaily.day}) < 6)`,
      })
      .from(revenueDaily)
      .where(ofDemoSites);
    expect(Number(week.weekend)).toBeGreaterThan(1.1 * Number(week.weekday));
  });
});

describe('determinism', () => {
  let fresh: Database;
  beforeAll(async () => {
    fresh = await openPglite(undefined);
    await migrate(fresh);
  });
  afterAll(() => fresh?.close());

  it('stores for every site and day exactly the numbers of revenueFor, the pure generator', async () => {
    // seedDemo writes revenueFor(site, day, country) and nothing else, so seeding again gives the same numbers.
    const lastDay = dayNumber(t.today);
    const expected = DEMO_SITES.flatMap((site) =>
      Array.from({ length: DEMO_DAYS }, (_, i) => {
        const day = lastDay - DEMO_DAYS + 1 + i;
        const sums = { adRequests: 0, impressions: 0, clicks: 0, revenueMicros: 0 };
        for (const country of COUNTRIES) {
          const v = revenueFor(site, day, country);
          for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += v[key];
        }
        const text = Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, String(v)]));
        return { siteId: site.id, day: dayString(day), rows: COUNTRIES.length, ...text };
      }),
    ).sort((a, b) => a.siteId.localeCompare(b.siteId) || a.day.localeCompare(b.day));
    expect(await dailySums(t.db, dayString(lastDay - DEMO_DAYS + 1), t.today)).toEqual(expected);
  });

  it('gives a day the same rows whatever today is, and however many days are seeded', async () => {
    // 40 days ending 30 days ago: the last 10 of them lie inside the demo data's year.
    const earlierToday = dayString(dayNumber(t.today) - 30);
    await seedDemo(fresh.db, { today: earlierToday, days: 40 });
    const from = dayString(dayNumber(earlierToday) - 39);
    const sums = await dailySums(fresh.db, from, t.today);
    expect(sums).toHaveLength(demoSiteIds.length * 40);
    expect(sums).toEqual(await dailySums(t.db, from, earlierToday));

    const rowsOf = (db: Db) =>
      db
        .select()
        .from(revenueDaily)
        .where(and(ofDemoSites, between(revenueDaily.day, dayString(dayNumber(earlierToday) - 9), earlierToday)))
        .orderBy(asc(revenueDaily.siteId), asc(revenueDaily.day), asc(revenueDaily.country));
    expect(await rowsOf(fresh.db)).toEqual(await rowsOf(t.db));
  });

  it('leaves the rollup compacted with every page all-visible, so its index-only scans read no table', async () => {
    // VACUUM FULL alone left the visibility map empty: each index-only scan of the rollup read the table too. On
    // the private database seeded above: on the shared one, other files' writes and transactions would decide
    // which pages a vacuum can mark, and VACUUM FULL would lock them out of the rollup meanwhile.
    await compactRollup(fresh.db);
    const plan = await fresh.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      return rows<{ 'QUERY PLAN': string }>(
        tx as unknown as Db,
        sql`explain (analyze, costs off) select period, site_id, revenue_micros from revenue_rollup
            where user_id = ${DEMO_IDS.users.demo} and grain = 'm' and site_id is not null and country is null`,
      );
    });
    const text = plan.map((line) => line['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index Only Scan/);
    expect(text.match(/Heap Fetches: \d+/g)).toEqual(['Heap Fetches: 0']);
  });
});

describe('factories', () => {
  it('make publishers, sites and revenue of a test of its own', async () => {
    const tag = Date.now().toString(36);
    const a = await createPublisher(t.db, { email: `Someone.${tag}@Test.Example` });
    const b = await createPublisher(t.db, { password: 'secret-1' });
    expect(a.email).toBe(`someone.${tag}@test.example`);
    expect(b.email).not.toBe(a.email);
    expect(a.role).toBe('publisher');
    const [owner] = await t.db.select().from(people).where(eq(people.id, b.id));
    expect(await verify(owner.passwordHash, 'secret-1')).toBe(true);

    const site = await createSite(t.db, b.id, { status: 'pending' });
    expect(site).toMatchObject({ userId: b.id, status: 'pending', framework: 'phaser' });
    const rows = await createRevenue(t.db, site.id, [
      { day: '2025-01-01', country: 'US', adRequests: 10, impressions: 8, revenueMicros: 24_000 },
      { day: '2025-01-02', country: 'DE' },
    ]);
    expect(rows.map((r) => [r.day, r.country, r.impressions, r.updatedAt.toISOString()])).toEqual([
      ['2025-01-01', 'US', 8, '2025-01-02T02:00:00.000Z'],
      ['2025-01-02', 'DE', 0, '2025-01-03T02:00:00.000Z'],
    ]);
  });
});

async function revenueDailyIndexes() {
  const parent = await rows<{ name: string; valid: boolean }>(
    t.db,
    sql`select indexrelid::regclass::text as name, indisvalid as valid from pg_index
        where indrelid = 'revenue_daily'::regclass order by 1`,
  );
  const months = await rows<{ month: string; indexes: number; foreignKeys: number }>(
    t.db,
    sql`select c.relname as month,
          (select count(*)::int from pg_index i where i.indrelid = c.oid and i.indisvalid) as indexes,
          (select count(*)::int from pg_constraint k where k.conrelid = c.oid and k.contype = 'f') as "foreignKeys"
        from pg_inherits h join pg_class c on c.oid = h.inhrelid where h.inhparent = 'revenue_daily'::regclass`,
  );
  return { parent, months };
}

import { hash } from '@node-rs/argon2';
import { sql } from 'drizzle-orm';
import { COUNTRIES } from '@/lib/shared/countries';
import { withLedgerTruncateAllowed } from './append-only';
import { withoutSecondaryIndexes } from './bulk';
import { addRevenueMonths } from './revenue-months';
import type { Db } from './open';
import { memberships, people, sites, users } from './schema';
import {
  DEMO_IDS,
  DEMO_PASSWORD,
  DEMO_SITES,
  DEMO_MEMBERS,
  DEMO_USERS,
  type DemoSite,
  dayNumber,
  dayString,
  revenueFor,
  todayUtc,
} from './seed-data';

export { DEMO_IDS, DEMO_MEMBERS, DEMO_PASSWORD, DEMO_USERS } from './seed-data';

/** Days of revenue per site, ending `today` inclusive. */
export const DEMO_DAYS = 365;

export interface SeedSummary {
  users: number;
  sites: number;
  revenueRows: number;
  ms: number;
}

/** A PostgreSQL array literal; the values here are digits, dates, uuids and country codes, none needing quotes. */
const arrayLiteral = (values: ArrayLike<number | string>) => `{${Array.prototype.join.call(values, ',')}}`;

/**
 * Every site's days as a single INSERT … SELECT FROM unnest(arrays): one statement with seven array
 * parameters instead of hundreds of thousands of bind parameters, valid on PostgreSQL 15 and PGlite alike.
 * One statement, not one per site, so the rollup triggers fold each day's rows of all sites in one pass.
 */
async function insertRevenue(db: Db, sites: readonly DemoSite[], firstDay: number, lastDay: number): Promise<number> {
  const n = sites.length * (lastDay - firstDay + 1) * COUNTRIES.length;
  const siteIds: string[] = new Array(n);
  const days: string[] = new Array(n);
  const countries: string[] = new Array(n);
  const adRequests = new Float64Array(n);
  const impressions = new Float64Array(n);
  const clicks = new Float64Array(n);
  const revenueMicros = new Float64Array(n);
  let i = 0;
  for (const site of sites) {
    for (let day = firstDay; day <= lastDay; day++) {
      const dayText = dayString(day);
      for (const country of COUNTRIES) {
        const v = revenueFor(site, day, country);
        siteIds[i] = site.id;
        days[i] = dayText;
        countries[i] = country.code;
        adRequests[i] = v.adRequests;
        impressions[i] = v.impressions;
        clicks[i] = v.clicks;
        revenueMicros[i] = v.revenueMicros;
        i++;
      }
    }
  }
  await addRevenueMonths(db, dayString(firstDay), dayString(lastDay));
  // A day's row is final the next night at 02:00 UTC; today's and yesterday's may not have got there yet.
  await db.execute(sql`
    INSERT INTO revenue_daily (site_id, user_id, day, country, ad_requests, impressions, clicks, revenue_micros, updated_at)
    SELECT t.site_id, s.user_id, t.day, t.country, t.ad_requests, t.impressions, t.clicks, t.revenue_micros,
           least((t.day::timestamp AT TIME ZONE 'UTC') + interval '26 hours', now())
    FROM unnest(${arrayLiteral(siteIds)}::uuid[], ${arrayLiteral(days)}::date[], ${arrayLiteral(countries)}::text[],
                ${arrayLiteral(adRequests)}::bigint[], ${arrayLiteral(impressions)}::bigint[],
                ${arrayLiteral(clicks)}::bigint[], ${arrayLiteral(revenueMicros)}::bigint[])
      AS t(site_id, day, country, ad_requests, impressions, clicks, revenue_micros)
    JOIN sites AS s ON s.id = t.site_id`);
  return n;
}

/** Writes sites of the demo's shape (the large set's too), each added `addedDaysEarlier` days before `firstDay`. */
/**
 * Accounts, each with one person of the same id, e-mail, name and password as its Owner: what migration 0009
 * made of every account that could sign in.
 */
export async function insertAccountsWithOwners(
  db: Db,
  accounts: (typeof users.$inferInsert & { id: string; passwordHash: string })[],
): Promise<void> {
  // The password is the person's: an account has none.
  await db
    .insert(users)
    .values(accounts.map(({ id, email, name, role, createdAt }) => ({ id, email, name, role, createdAt })));
  await db
    .insert(people)
    .values(
      accounts.map(({ id, email, name, passwordHash, createdAt }) => ({ id, email, name, passwordHash, createdAt })),
    );
  await db
    .insert(memberships)
    .values(accounts.map(({ id, createdAt }) => ({ accountId: id, personId: id, role: 'owner' as const, createdAt })));
}

export async function insertSites(
  db: Db,
  list: readonly DemoSite[],
  firstDay: number,
  addedAt: (day: number) => Date,
): Promise<void> {
  await db.insert(sites).values(
    list.map((s) => ({
      id: s.id,
      userId: s.userId,
      name: s.name,
      url: s.url,
      framework: s.framework,
      status: s.status,
      dailyActiveUsers: s.dailyActiveUsers,
      monthlyActiveUsers: s.monthlyActiveUsers,
      adUnitId: s.adUnitId,
      createdAt: addedAt(firstDay - s.addedDaysEarlier),
    })),
  );
}

/** Raw SQL through drizzle, rows as objects: postgres.js returns them as an array, PGlite in `rows`. */
/** A transaction as the minimal query session db/bulk.ts needs. */
export const catalogQuery = (db: Db) => ({
  async query<T>(text: string): Promise<T[]> {
    const result = (await db.execute(sql.raw(text))) as unknown as T[] | { rows: T[] };
    return Array.isArray(result) ? result : result.rows;
  },
});

/**
 * Replaces all accounts, sites, keys, sessions and revenue with the demo data set, in one transaction.
 * Every number is a pure function of (site, day, country), so a day looks the same whatever `today` is.
 * `days` (default DEMO_DAYS) is how many days of revenue, ending `today`: fewer make a quick, small copy.
 */
export async function seedDemo(db: Db, options: { today?: string; days?: number } = {}): Promise<SeedSummary> {
  const started = performance.now();
  const lastDay = dayNumber(options.today ?? todayUtc());
  const firstDay = lastDay - (options.days ?? DEMO_DAYS) + 1;
  // Hashing runs on libuv's pool; do it before the transaction so no lock is held meanwhile.
  const passwordHashes = await Promise.all(DEMO_USERS.map(() => hash(DEMO_PASSWORD)));
  const memberHashes = await Promise.all(DEMO_MEMBERS.map(() => hash(DEMO_PASSWORD)));
  const at = (day: number) => new Date(day * 86_400_000 + 9.5 * 3_600_000); // added mid-morning UTC

  let revenueRows = 0;
  await db.transaction(async (tx) => {
    // The accounts' statements and payments go with them: the ledger's TRUNCATE guards are lifted for this
    // statement alone, which only the tables' owner may do (db/append-only.ts).
    await withLedgerTruncateAllowed(tx, () =>
      tx.execute(sql`TRUNCATE revenue_daily, api_keys, sessions, sites, users, people CASCADE`),
    );
    await insertAccountsWithOwners(
      tx as unknown as Db,
      DEMO_USERS.map((u, i) => ({
        id: DEMO_IDS.users[u.key],
        email: u.email,
        name: u.name,
        role: u.role,
        passwordHash: passwordHashes[i],
        createdAt: at(firstDay - 700), // before any of their sites
      })),
    );
    await insertSites(tx as unknown as Db, DEMO_SITES, firstDay, at);
    await tx.insert(people).values(
      DEMO_MEMBERS.map((m, i) => ({
        id: DEMO_IDS.people[m.key],
        email: m.email,
        name: m.name,
        passwordHash: memberHashes[i],
        createdAt: at(firstDay - 600),
      })),
    );
    await tx.insert(memberships).values(
      DEMO_MEMBERS.map((m) => ({
        accountId: DEMO_IDS.users[m.account],
        personId: DEMO_IDS.people[m.key],
        role: m.role,
        siteIds: m.sites && m.sites.map((key) => DEMO_IDS.sites[key]),
        createdAt: at(firstDay - 600),
      })),
    );
    // The TRUNCATE already keeps readers out until commit, so the indexes can be rebuilt once, not row by row.
    revenueRows = await withoutSecondaryIndexes(catalogQuery(tx as unknown as Db), 'revenue_daily', () =>
      insertRevenue(tx as unknown as Db, DEMO_SITES, firstDay, lastDay),
    );
  });
  // Fresh statistics, so report queries get their real plans at once (PGlite has no autovacuum to do it).
  await db.execute(sql`ANALYZE users, people, memberships, sites, revenue_daily, revenue_rollup`);

  return {
    users: DEMO_USERS.length,
    sites: DEMO_SITES.length,
    revenueRows,
    ms: Math.round(performance.now() - started),
  };
}

/** Seeds the demo data only into a database without any user (a fresh embedded database, say). */
export async function seedDemoIfEmpty(db: Db, options: { today?: string } = {}): Promise<SeedSummary | null> {
  const existing = await db.select({ id: users.id }).from(users).limit(1);
  return existing.length === 0 ? seedDemo(db, options) : null;
}

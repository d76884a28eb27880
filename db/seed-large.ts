/**
 * The large data set (`npm run db:seed -- --scale large`): publisher big@example.com with 100 sites × 200
 * countries × 730 days (14.6 M daily rows), for measuring reports at the size of a real large publisher.
 * Numbers come from the demo's revenue model (db/seed-data.ts), so they look real and are the same on every
 * run. Rows are written with COPY straight into revenue_daily, a few days of all sites at a time, so the
 * rollup triggers fold each batch into few account-wide groups; the table's secondary indexes and foreign key
 * are rebuilt once at the end instead of row by row (db/bulk.ts).
 */
import { hash } from '@node-rs/argon2';
import { eq, sql } from 'drizzle-orm';
import { compactRollup, CopyText, withoutSecondaryIndexes } from './bulk';
import { addRevenueMonths } from './revenue-months';
import type { Database } from './open';
import { people, users } from './schema';
import { insertAccountsWithOwners, insertSites } from './seed';
import { COUNTRIES, type Country, countryCodesMatching, countryName } from '@/lib/shared/countries';
import { DEMO_PASSWORD, type DemoSite, dayNumber, dayString, demoUuid, revenueFor, todayUtc } from './seed-data';

export const LARGE = { email: 'big@example.com', name: 'Big Arcade Network', sites: 100, countries: 200, days: 730 };
const BIG_USER_ID = demoUuid('user:big');
/** Days of all sites per COPY: ~160,000 rows (16 MB of text); fewer, larger batches fold into fewer rollup groups. */
const DAYS_PER_BATCH = 8;
const FRAMEWORKS = ['phaser', 'unity', 'godot', 'construct', 'pixijs'] as const;

/** A number in [0, 1) per site and purpose, from the same hash as demo ids: varied, and the same on every run. */
const spread = (i: number, purpose: number) =>
  Number.parseInt(demoUuid(`big-spec:${i}:${purpose}`).slice(0, 8), 16) / 2 ** 32;

export const LARGE_SITES: readonly DemoSite[] = Array.from({ length: LARGE.sites }, (_, i) => {
  const n = String(i + 1).padStart(3, '0');
  const dailyActiveUsers = Math.round(2_000 + 60_000 * spread(i, 1) ** 2);
  return {
    key: `big${n}`,
    owner: 'demo', // unused by the revenue model; the owner is BIG_USER_ID
    name: `Arcade Game ${n}`,
    url: `https://game${n}.big.example`,
    framework: FRAMEWORKS[i % FRAMEWORKS.length],
    status: 'live',
    dailyActiveUsers,
    monthlyActiveUsers: dailyActiveUsers * 9,
    adsPerUser: 2.5 + 3 * spread(i, 2),
    cpmFactor: 0.8 + 0.5 * spread(i, 3),
    growth: -0.2 + 0.9 * spread(i, 4),
    addedDaysEarlier: 30 + Math.round(300 * spread(i, 5)),
    id: demoUuid(`big-site:${i + 1}`),
    userId: BIG_USER_ID,
    adUnitId: `au-${demoUuid(`big-ad-unit:${i + 1}`)
      .replace(/-/g, '')
      .slice(0, 16)}`,
  };
});

/** The demo's 48 markets plus the next countries in code order, with the low weight of a long tail. */
export const LARGE_COUNTRIES: readonly Country[] = [
  ...COUNTRIES,
  ...countryCodesMatching('')
    .filter((code) => !COUNTRIES.some((c) => c.code === code))
    .slice(0, LARGE.countries - COUNTRIES.length)
    .map((code) => ({ code, name: countryName(code) ?? code, tier: 3 as const, weight: 0.15 })),
];

/** Adds (or replaces) big@example.com and its rows; `onProgress` gets rows written so far and the total. */
export async function seedLarge(
  database: Database,
  options: { today?: string; onProgress?: (done: number, total: number) => void } = {},
): Promise<{ rows: number; ms: number }> {
  const started = performance.now();
  const lastDay = dayNumber(options.today ?? todayUtc());
  const firstDay = lastDay - LARGE.days + 1;
  const total = LARGE.days * LARGE_SITES.length * LARGE_COUNTRIES.length;
  const passwordHash = await hash(DEMO_PASSWORD);
  const { db } = database;
  await db.delete(users).where(eq(users.email, LARGE.email)); // its sites and rows go with it (cascade)
  await db.delete(people).where(eq(people.email, LARGE.email));
  await insertAccountsWithOwners(db, [
    { id: BIG_USER_ID, email: LARGE.email, name: LARGE.name, role: 'publisher', passwordHash },
  ]);
  await insertSites(db, LARGE_SITES, firstDay, (day) => new Date(day * 86_400_000)); // added at midnight UTC
  await addRevenueMonths(db, dayString(firstDay), dayString(lastDay));
  let done = 0;
  await database.bulk((session) =>
    withoutSecondaryIndexes(session, 'revenue_daily', async () => {
      for (let from = firstDay; from <= lastDay; from += DAYS_PER_BATCH) {
        const text = new CopyText();
        for (let day = from; day < Math.min(from + DAYS_PER_BATCH, lastDay + 1); day++) {
          const dayText = dayString(day);
          // A day's row is final the next night at 02:00 UTC, like the demo's.
          const updatedAt = new Date(Math.min((day + 1) * 86_400_000 + 2 * 3_600_000, Date.now())).toISOString();
          for (const site of LARGE_SITES) {
            for (const country of LARGE_COUNTRIES) {
              const v = revenueFor(site, day, country);
              text.add([
                site.id,
                BIG_USER_ID,
                dayText,
                country.code,
                v.impressions,
                v.clicks,
                v.adRequests,
                v.revenueMicros,
                updatedAt,
              ]);
              done++;
            }
          }
        }
        await session.copyIn('revenue_daily', COPY_COLUMNS, text.take());
        options.onProgress?.(done, total);
      }
    }),
  );
  // VACUUM too, not only ANALYZE: it sets the visibility map, without which index-only scans read the heap
  // anyway (what autovacuum would do later on its own, done now so that a bench right after the load is fair).
  await db.execute(sql`vacuum (analyze) revenue_daily`);
  await compactRollup(db);
  return { rows: done, ms: Math.round(performance.now() - started) };
}

const COPY_COLUMNS = [
  'site_id',
  'user_id',
  'day',
  'country',
  'impressions',
  'clicks',
  'ad_requests',
  'revenue_micros',
  'updated_at',
];

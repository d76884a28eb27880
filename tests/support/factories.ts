import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { addRevenueMonths } from '@/db/revenue-months';
import {
  type MemberRole,
  memberships,
  people,
  type Person,
  type Site,
  type User,
  revenueDaily,
  sites,
  users,
} from '@/db/schema';

/**
 * Rows of a test's own, for tests that must not depend on shared state: on PostgreSQL the test files of a worker
 * share its database, so anything a test counts or changes should belong to an account it created itself.
 */

type NewUser = typeof users.$inferInsert;
type NewSite = typeof sites.$inferInsert;
type NewRevenue = typeof revenueDaily.$inferInsert;
type RevenueRow = typeof revenueDaily.$inferSelect;

const unique = () => randomUUID().slice(0, 8);

// One hash for every test account made without a password: argon2 is slow on purpose, and nobody knows it.
let unusableHash: Promise<string> | undefined;

/**
 * A publisher account with a unique e-mail address and its Owner: a person of the same id, e-mail and name (as
 * migration 0009 made of every account). Pass `password` to be able to sign in as that person.
 */
export async function createPublisher(db: Db, overrides: Partial<NewUser> & { password?: string } = {}): Promise<User> {
  const { password, ...fields } = overrides;
  const tag = unique();
  const [user] = await db
    .insert(users)
    .values({
      name: `Test Publisher ${tag}`,
      role: 'publisher',
      ...fields,
      // Stored lower-cased, like every e-mail address in the users table.
      email: (fields.email ?? `publisher-${tag}-${Date.now()}@test.example`).toLowerCase(),
    })
    .returning();
  const passwordHash = password === undefined ? await (unusableHash ??= hash(randomUUID())) : await hash(password);
  await db.insert(people).values({ id: user.id, email: user.email, name: user.name, passwordHash });
  await db.insert(memberships).values({ accountId: user.id, personId: user.id, role: 'owner' });
  return user;
}

/** Someone new made a member of `accountId` with `role` (and a Viewer's sites); signs in with `password`. */
export async function addMember(
  db: Db,
  accountId: string,
  { role, password, siteIds = null }: { role: MemberRole; password?: string; siteIds?: string[] | null },
): Promise<Person> {
  const tag = unique();
  const passwordHash = password === undefined ? await (unusableHash ??= hash(randomUUID())) : await hash(password);
  const [person] = await db
    .insert(people)
    .values({ email: `member-${tag}-${Date.now()}@test.example`, name: `Member ${tag}`, passwordHash })
    .returning();
  await db.insert(memberships).values({ accountId, personId: person.id, role, siteIds });
  return person;
}

/** A live site of `userId`. */
export async function createSite(db: Db, userId: string, overrides: Partial<NewSite> = {}): Promise<Site> {
  const tag = unique();
  const [site] = await db
    .insert(sites)
    .values({
      userId,
      name: `Test Game ${tag}`,
      url: `https://game-${tag}.test.example`,
      framework: 'phaser',
      status: 'live',
      dailyActiveUsers: 1_000,
      monthlyActiveUsers: 12_000,
      adUnitId: `au-test-${tag}`,
      createdAt: new Date('2020-01-01T00:00:00Z'),
      ...overrides,
    })
    .returning();
  return site;
}

/**
 * Revenue rows of `siteId` with exactly the numbers a test wants to assert on; unspecified metrics are 0
 * and `updatedAt` is the next day at 02:00 UTC.
 */
export async function createRevenue(
  db: Db,
  siteId: string,
  rows: Array<{ day: string; country: string } & Partial<Omit<NewRevenue, 'siteId' | 'userId' | 'day' | 'country'>>>,
): Promise<RevenueRow[]> {
  if (rows.length === 0) return [];
  const [site] = await db.select({ userId: sites.userId }).from(sites).where(eq(sites.id, siteId));
  if (!site) throw new Error(`createRevenue: no site ${siteId}`);
  const days = rows.map((r) => r.day).sort();
  await addRevenueMonths(db, days[0], days[days.length - 1]);
  return db
    .insert(revenueDaily)
    .values(
      rows.map((row) => ({
        updatedAt: new Date(Date.parse(`${row.day}T00:00:00Z`) + 26 * 3_600_000),
        ...row,
        siteId,
        userId: site.userId,
      })),
    )
    .returning();
}

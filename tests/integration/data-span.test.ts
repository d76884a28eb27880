/**
 * "All time" and "Data updated" (issue 10, point 3): where an account's data starts and when a write last
 * changed its figures, read from the rollup (db/migrations/0006_rollup_updated_at.sql), for any kind of write.
 */
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { revenueDaily } from '@/db/schema';
import { DEMO_IDS } from '@/db/seed-data';
import { getDataSpan } from '@/lib/reports/data-span';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { sessionPrincipal } from '../support/keys';
import { sqlRows } from './reports-helpers';

const t = useTestDatabase();

async function newAccount() {
  const user = await createPublisher(t.db);
  const [a, b] = [await createSite(t.db, user.id), await createSite(t.db, user.id)];
  return { principal: sessionPrincipal(user.id), a, b };
}

/** Times are compared in milliseconds (a Date's precision): let one pass between two writes. */
const aMomentLater = () => new Promise((resolve) => setTimeout(resolve, 3));

/** The database's clock, so a test compares times from one clock. */
const dbNow = async () =>
  new Date((await sqlRows<{ now: string }>(t.db, sql`select to_json(now()) #>> '{}' as now`))[0].now);

describe('the span of an account’s data', () => {
  it('starts on the demo account’s first day with rows', async () => {
    const [first] = await sqlRows<{ day: string }>(
      t.db,
      sql`select min(day)::text as day from revenue_daily where user_id = ${DEMO_IDS.users.demo}`,
    );
    const span = await getDataSpan(sessionPrincipal(DEMO_IDS.users.demo));
    expect(span.firstDay).toBe(first.day);
    expect(span.updatedAt).toBeInstanceOf(Date);
  });

  it('is empty for an account without revenue', async () => {
    const { principal } = await newAccount();
    expect(await getDataSpan(principal)).toEqual({ firstDay: null, updatedAt: null });
  });

  it('moves "updated" forward on every insert, update and delete, old days included, and not on a no-op', async () => {
    const { principal, a, b } = await newAccount();
    const before = await dbNow();
    await createRevenue(t.db, a.id, [{ day: '2025-06-10', country: 'DE', revenueMicros: 5_000_000 }]);
    const inserted = await getDataSpan(principal);
    expect(inserted.firstDay).toBe('2025-06-10');
    expect(inserted.updatedAt!.getTime()).toBeGreaterThanOrEqual(before.getTime());

    await aMomentLater();
    // A backfill of an older day, on another site: the start moves back, the time forward.
    await createRevenue(t.db, b.id, [{ day: '2024-01-31', country: 'FR', impressions: 7 }]);
    const backfilled = await getDataSpan(principal);
    expect(backfilled.firstDay).toBe('2024-01-31');
    expect(backfilled.updatedAt!.getTime()).toBeGreaterThan(inserted.updatedAt!.getTime());

    await aMomentLater();
    // Rewriting a row with the same figures changes nothing a report shows, so not "updated" either.
    await t.db.update(revenueDaily).set({ revenueMicros: 5_000_000 }).where(eq(revenueDaily.siteId, a.id));
    expect((await getDataSpan(principal)).updatedAt).toEqual(backfilled.updatedAt);

    await aMomentLater();
    await t.db.update(revenueDaily).set({ revenueMicros: 6_000_000 }).where(eq(revenueDaily.siteId, a.id));
    const updated = await getDataSpan(principal);
    expect(updated.updatedAt!.getTime()).toBeGreaterThan(backfilled.updatedAt!.getTime());

    await aMomentLater();
    await createRevenue(t.db, b.id, [{ day: '2025-06-11', country: 'FR', impressions: 3 }]);
    const added = await getDataSpan(principal);
    expect(added.updatedAt!.getTime()).toBeGreaterThan(updated.updatedAt!.getTime());

    // Deleting the only rows of the first month: the start moves on to the next day with rows.
    await t.db.delete(revenueDaily).where(and(eq(revenueDaily.siteId, b.id), eq(revenueDaily.day, '2024-01-31')));
    expect((await getDataSpan(principal)).firstDay).toBe('2025-06-10');

    await aMomentLater();
    await t.db.delete(revenueDaily).where(and(eq(revenueDaily.siteId, b.id), eq(revenueDaily.day, '2025-06-11')));
    expect((await getDataSpan(principal)).updatedAt!.getTime()).toBeGreaterThan(added.updatedAt!.getTime());
  });

  it('covers only a site-scoped principal’s sites', async () => {
    const { principal, a, b } = await newAccount();
    await createRevenue(t.db, a.id, [{ day: '2025-03-01', country: 'US', impressions: 1 }]);
    await createRevenue(t.db, b.id, [{ day: '2023-03-01', country: 'US', impressions: 1 }]);
    expect((await getDataSpan({ ...principal, siteScope: [a.id] })).firstDay).toBe('2025-03-01');
    expect((await getDataSpan(principal)).firstDay).toBe('2023-03-01');
  });
});

/**
 * Alerts that are not about a revenue day: the hourly scan's (a live site whose data stopped, a key about to
 * expire) and those that events raise in their own transaction (a statement finalized, a payment recorded, a
 * site's review). Each is stored once, however often the scan runs.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys, users } from '@/db/schema';
import { DEMO_IDS } from '@/db/seed-data';
import { COMMAND_LINE } from '@/lib/access/principal';
import { scanAccounts } from '@/lib/alerts';
import { closeMonth, recordPayments } from '@/lib/payments';
import { addDays, eachDay, todayUtc } from '@/lib/query';
import { updateSite } from '@/lib/sites';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { issueKey, sessionPrincipal } from '../support/keys';
import { sqlRows } from './reports-helpers';

const t = useTestDatabase();
const TODAY = todayUtc();

const alertsOf = (accountId: string) =>
  sqlRows<{ kind: string; site_id: string | null; subject_id: string | null; day: string | null; message: string }>(
    t.db,
    sql`select kind, site_id, subject_id, day::text as day, message from alerts where account_id = ${accountId}
        order by created_at, kind`,
  );

/** A site with a row a day from `first` through `last`. */
async function siteWithDays(accountId: string, first: string, last: string, status: 'live' | 'pending' = 'live') {
  const site = await createSite(t.db, accountId, { name: `Game ${randomUUID().slice(0, 4)}`, status });
  await createRevenue(
    t.db,
    site.id,
    eachDay(first, last).map((day) => ({ day, country: 'US', revenueMicros: 1_000_000 })),
  );
  return site;
}

describe('the hourly scan', () => {
  it('reports a live site whose rows stopped two complete days ago, once, from the first day without them', async () => {
    const owner = await createPublisher(t.db);
    const stopped = await siteWithDays(owner.id, addDays(TODAY, -30), addDays(TODAY, -3));
    await siteWithDays(owner.id, addDays(TODAY, -30), addDays(TODAY, -1));
    // Yesterday is its last: one day without rows is not yet missing data.
    await siteWithDays(owner.id, addDays(TODAY, -30), addDays(TODAY, -2));
    await siteWithDays(owner.id, addDays(TODAY, -30), addDays(TODAY, -5), 'pending');
    // Stopped long ago: a new deployment's first scan does not dig it up.
    await siteWithDays(owner.id, addDays(TODAY, -90), addDays(TODAY, -40));

    await scanAccounts();
    const missing = (await alertsOf(owner.id)).filter((a) => a.kind === 'data.missing');
    expect(missing).toEqual([expect.objectContaining({ site_id: stopped.id, day: addDays(TODAY, -2) })]);
    expect(missing[0].message).toMatch(new RegExp(`^${stopped.name} has had no data since `));
    await scanAccounts();
    expect((await alertsOf(owner.id)).filter((a) => a.kind === 'data.missing')).toHaveLength(1);
  });

  it('reports nothing for a deactivated account', async () => {
    const owner = await createPublisher(t.db);
    await siteWithDays(owner.id, addDays(TODAY, -30), addDays(TODAY, -4));
    await t.db.update(users).set({ status: 'deactivated' }).where(eq(users.id, owner.id));
    await scanAccounts();
    expect(await alertsOf(owner.id)).toEqual([]);
  });

  it('reports an API key seven days before it expires, once; not a revoked one or one further off', async () => {
    const owner = await createPublisher(t.db);
    const expiring = await issueKey(owner.id, {
      label: 'BI tool',
      expiresAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    await issueKey(owner.id, { label: 'later', expiresAt: new Date(Date.now() + 10 * 86_400_000).toISOString() });
    const revoked = await issueKey(owner.id, { expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    await t.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, revoked.record.id));
    await scanAccounts();
    await scanAccounts();
    expect(await alertsOf(owner.id)).toEqual([
      expect.objectContaining({ kind: 'key.expiring', subject_id: expiring.record.id }),
    ]);
    expect((await alertsOf(owner.id))[0].message).toMatch(/^The API key “BI tool” \(rpk_\w{8}…\) expires on /);
  });
});

describe('alerts raised by events, in their transaction', () => {
  it('a site review, a finalized statement and its payment', async () => {
    const owner = await createPublisher(t.db, { name: 'Event Games' });
    const site = await createSite(t.db, owner.id, { name: 'Maze', status: 'pending' });
    await updateSite(sessionPrincipal(DEMO_IDS.users.admin, 'admin'), site.id, { status: 'approved' });
    await createRevenue(t.db, site.id, [{ day: '2024-01-05', country: 'US', revenueMicros: 150_000_000 }]);
    await closeMonth(COMMAND_LINE, { month: '2024-01', today: '2024-02-10' });
    await recordPayments(
      COMMAND_LINE,
      [{ account: owner.email, month: '2024-01', amount: '150.00', paidAt: '2024-02-28', reference: 'T-9' }],
      { today: '2024-03-01' },
    );
    expect((await alertsOf(owner.id)).map((a) => [a.kind, a.site_id, a.message])).toEqual([
      ['site.status_changed', site.id, 'Maze is now approved (was pending).'],
      ['statement.finalized', null, 'Your statement for January 2024 is final: $150.00 due.'],
      ['payment.recorded', null, 'Payment recorded: $150.00 for January 2024 of Event Games, paid on Feb 28, 2024.'],
    ]);
  });
});

/**
 * An admin views a publisher's dashboard read-only (issue 10, point 9): whose figures a page reads with, the
 * chooser an admin gets instead of a page of zeros, `?as=` refused for publishers and for anything but a
 * publisher account, and every write refusing the viewed principal.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { loadHeadline } from '@/lib/dashboard/overview';
import { viewerOf, type Viewer } from '@/lib/dashboard/viewer';
import { createApiKey, listApiKeys, revokeApiKey } from '@/lib/keys/api-keys';
import type { Principal } from '@/lib/access/principal';
import { getTotals } from '@/lib/reports/reports';
import type { SessionPerson } from '@/lib/identity/sessions';
import { useTestDatabase } from '../support/db';
import { demoKey, sessionPersonOf } from '../support/keys';
import { shiftDay } from './reports-helpers';

const t = useTestDatabase();
const admin: SessionPerson = sessionPersonOf(DEMO_IDS.users.admin, {
  name: 'Admin',
  email: 'admin@example.com',
  role: 'admin',
});
const demo: SessionPerson = sessionPersonOf(DEMO_IDS.users.demo, { name: 'Demo', email: 'demo@example.com' });

function ready(viewer: Viewer): Principal {
  if (viewer.kind !== 'ready') throw new Error(`expected a ready viewer, got ${viewer.kind}`);
  return viewer.principal;
}

describe('viewerOf', () => {
  it('gives an operator without ?as= the publishers to choose from, not their own empty figures', async () => {
    const viewer = await viewerOf(admin, {});
    expect(viewer.kind).toBe('choose');
    const emails = viewer.kind === 'choose' ? viewer.publishers.map((p) => p.email) : [];
    expect(emails).toEqual(expect.arrayContaining(['demo@example.com', 'rival@example.com']));
    expect(emails).not.toContain('admin@example.com');
    // The keys page is the admin's own (keys made for publishers): there the admin is enough.
    expect(ready(await viewerOf(admin, {}, { ownIsEnough: true })).userId).toBe(DEMO_IDS.users.admin);
  });

  it('shows an operator the publisher’s own figures, to the micro-dollar, marked as viewed by the operator', async () => {
    const viewer = await viewerOf(admin, { as: DEMO_IDS.users.demo.toUpperCase() });
    const principal = ready(viewer);
    expect(viewer.kind === 'ready' && viewer.viewingAs).toMatchObject({ email: 'demo@example.com' });
    expect(principal).toMatchObject({ userId: DEMO_IDS.users.demo, role: 'publisher', viewedBy: DEMO_IDS.users.admin });
    const range = { fromDate: shiftDay(t.today, -30), toDate: t.today, siteIds: null, country: null };
    const viewed = await loadHeadline(principal, range, 'none', t.today);
    expect(viewed.totals).toEqual(await getTotals(demo.principal, range));
    expect(viewed.totals.totalRevenue).toBeGreaterThan(0);
  });

  it('refuses a publisher’s ?as= of an account not theirs, naming no other account’s data; their own is theirs', async () => {
    const viewer = await viewerOf(demo, { as: DEMO_IDS.users.rival });
    expect(viewer.kind).toBe('refused');
    if (viewer.kind === 'refused') expect(viewer.error.code).toBe('forbidden');
    expect(ready(await viewerOf(demo, {})).userId).toBe(DEMO_IDS.users.demo);
    // Their own account named in the URL: they act there with their role, not as someone viewing it.
    const own = ready(await viewerOf(demo, { as: DEMO_IDS.users.demo.toUpperCase() }));
    expect(own).toMatchObject({ userId: DEMO_IDS.users.demo, memberRole: 'owner' });
    expect(own.viewedBy).toBeUndefined();
  });

  it('answers an operator’s ?as= that is not a publisher account with not found', async () => {
    for (const as of ['not-a-uuid', '0badc0de-0000-4000-8000-000000000000']) {
      const viewer = await viewerOf(admin, { as });
      expect(viewer.kind, as).toBe('refused');
      if (viewer.kind === 'refused') expect(viewer.error.code, as).toBe('not_found');
    }
  });
});

describe('the viewed principal is read-only', () => {
  it('lists the publisher’s keys but cannot create or revoke one', async () => {
    const { record } = await demoKey({ label: 'viewed' });
    const viewed = ready(await viewerOf(admin, { as: DEMO_IDS.users.demo }));
    expect((await listApiKeys(viewed)).map((k) => k.id)).toContain(record.id);
    await expect(createApiKey(viewed, { label: 'by the admin' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(revokeApiKey(viewed, record.id)).rejects.toMatchObject({ code: 'forbidden' });
    const [after] = (await listApiKeys(demo.principal)).filter((k) => k.id === record.id);
    expect(after.revokedAt).toBeNull();
    expect((await listApiKeys(demo.principal)).some((k) => k.label === 'by the admin')).toBe(false);
  });
});

/**
 * Every cookie door checks what its page checks (issue 39, point 3): who a dashboard download acts as, or why
 * it refuses them, for every download (lib/dashboard/download-access.ts, which every cookie route goes through).
 * Finance and a one-site Viewer on every download; a member without the second factor an account of theirs
 * requires, refused everywhere; an admin's `?as=`.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import type { MemberRole } from '@/lib/access/principal';
import type { SessionPerson } from '@/lib/identity/sessions';
import { listActivity } from '@/lib/activity';
import { activityInput, readActivityView } from '@/lib/dashboard/activity';
import { DOWNLOADS, downloaderOf, TWO_FACTOR_FIRST } from '@/lib/dashboard/download-access';
import { useTestDatabase } from '../support/db';
import { memberPrincipal, sessionPersonOf } from '../support/keys';

useTestDatabase();

const DEMO = DEMO_IDS.users.demo;
const SKY_HOPPER = DEMO_IDS.sites.skyHopper;
const { reports, statements, activity } = DOWNLOADS;

/** A person who is a member of the demo account with `role` (a Viewer of Sky Hopper only), and of more accounts. */
function demoMember(
  person: string,
  role: MemberRole,
  { twoFactor = false, requiresTwoFactor = false, more = [] as SessionPerson['memberships'] } = {},
): SessionPerson {
  const siteIds = role === 'viewer' ? [SKY_HOPPER] : null;
  const membership = { accountId: DEMO, accountName: 'Demo Games Ltd', accountRole: 'publisher' as const, role };
  return {
    principal: memberPrincipal(DEMO, person, role, siteIds),
    personId: person,
    name: person,
    email: `${person}@example.com`,
    twoFactor,
    memberships: [{ ...membership, siteIds, requiresTwoFactor }, ...more],
  };
}

const finance = demoMember(DEMO_IDS.people.finance, 'finance');
const viewer = demoMember(DEMO_IDS.people.viewer, 'viewer');
const admin = sessionPersonOf(DEMO_IDS.users.admin, { name: 'Admin', email: 'admin@example.com', role: 'admin' });
const owner = sessionPersonOf(DEMO, { name: 'Demo', email: 'demo@example.com' });

describe('Finance and a one-site Viewer on every download', () => {
  it('lets Finance download the reports and statements, not the activity log', async () => {
    expect(await downloaderOf(finance, {}, reports)).toMatchObject({ userId: DEMO, memberRole: 'finance' });
    expect(await downloaderOf(finance, {}, statements)).toMatchObject({ userId: DEMO, siteScope: null });
    await expect(downloaderOf(finance, {}, activity)).rejects.toMatchObject({
      code: 'forbidden',
      detail: 'Downloading the activity log needs the Owner or Admin role; you are Finance.',
    });
  });

  it('lets the Viewer download the reports of her site only, and neither statements nor the log', async () => {
    // Her sites go with her principal: the reports' services refuse any other (403, lib/access/site-access.ts).
    expect(await downloaderOf(viewer, {}, reports)).toMatchObject({ userId: DEMO, siteScope: [SKY_HOPPER] });
    await expect(downloaderOf(viewer, {}, statements)).rejects.toMatchObject({
      code: 'forbidden',
      detail: 'Downloading statements needs the Owner or Finance role; you are Viewer.',
    });
    await expect(downloaderOf(viewer, {}, activity)).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('refuses an account-wide download to a member limited to some sites, whatever their role grants', async () => {
    const limited = { ...DOWNLOADS.statements, ability: undefined };
    await expect(downloaderOf(viewer, {}, limited)).rejects.toMatchObject({
      code: 'forbidden',
      detail: 'Downloading statements needs access to the whole account; you may read only some of its sites.',
    });
  });

  it('refuses a member’s ?as= of an account not theirs', async () => {
    for (const rules of Object.values(DOWNLOADS)) {
      await expect(downloaderOf(finance, { as: DEMO_IDS.users.rival }, rules)).rejects.toMatchObject({
        code: 'forbidden',
      });
    }
  });
});

describe('the two-factor requirement', () => {
  const other = { accountId: DEMO_IDS.users.rival, accountName: 'Rival', accountRole: 'publisher' as const };

  it('refuses every download to a member without the second factor their account requires', async () => {
    const unprotected = demoMember(DEMO_IDS.people.finance, 'finance', { requiresTwoFactor: true });
    const ownerToo = { ...owner, memberships: owner.memberships.map((m) => ({ ...m, requiresTwoFactor: true })) };
    for (const user of [unprotected, ownerToo]) {
      for (const rules of Object.values(DOWNLOADS)) {
        await expect(downloaderOf(user, {}, rules)).rejects.toMatchObject({
          code: 'forbidden',
          detail: TWO_FACTOR_FIRST,
        });
      }
    }
  });

  it('holds for the downloads of another of their accounts too, as the pages do', async () => {
    const more = [{ ...other, role: 'owner' as const, siteIds: null, requiresTwoFactor: true }];
    const user = demoMember(DEMO_IDS.people.finance, 'finance', { more });
    await expect(downloaderOf(user, { as: DEMO }, statements)).rejects.toMatchObject({ detail: TWO_FACTOR_FIRST });
  });

  it('lets them download once their second factor is on', async () => {
    const user = demoMember(DEMO_IDS.people.finance, 'finance', { twoFactor: true, requiresTwoFactor: true });
    expect(await downloaderOf(user, {}, statements)).toMatchObject({ userId: DEMO, memberRole: 'finance' });
  });
});

describe('an operator', () => {
  it('chooses a publisher for the reports and statements (400), and reads every account’s log without one', async () => {
    for (const rules of [reports, statements]) {
      await expect(downloaderOf(admin, {}, rules)).rejects.toMatchObject({
        code: 'invalid',
        detail: `Choose a publisher (?as=) to download their ${rules.what}.`,
      });
    }
    expect(await downloaderOf(admin, {}, activity)).toMatchObject({ userId: DEMO_IDS.users.admin, role: 'admin' });
  });

  it('downloads what the publisher named by ?as= would, read-only', async () => {
    for (const rules of Object.values(DOWNLOADS)) {
      expect(await downloaderOf(admin, { as: DEMO }, rules)).toMatchObject({
        userId: DEMO,
        role: 'publisher',
        viewedBy: DEMO_IDS.users.admin,
      });
    }
  });

  it('lets the account’s Owner have every download', async () => {
    for (const rules of Object.values(DOWNLOADS)) {
      expect(await downloaderOf(owner, {}, rules)).toMatchObject({ userId: DEMO, memberRole: 'owner' });
    }
  });
});

describe('the activity log’s service', () => {
  const firstPage = activityInput(readActivityView({}, false));

  it('reads the account’s log for its Owners and Admins only, whichever door asks', async () => {
    for (const role of ['owner', 'admin'] as const) {
      const page = await listActivity(memberPrincipal(DEMO, DEMO_IDS.people.finance, role), firstPage);
      expect(page.data.every((event) => event.accountId === DEMO)).toBe(true);
    }
    await expect(listActivity(finance.principal, firstPage)).rejects.toMatchObject({
      code: 'forbidden',
      detail: 'Reading the activity log needs the Owner or Admin role; you are Finance.',
    });
    await expect(listActivity(viewer.principal, firstPage)).rejects.toMatchObject({ code: 'forbidden' });
  });
});

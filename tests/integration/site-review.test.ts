import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sites } from '@/db/schema';
import {
  addSite,
  createSite,
  deleteSite,
  editOwnSite,
  listOwnSites,
  listSitesForReview,
  siteListQuery,
  siteHistory,
  updateSite,
} from '@/lib/sites';
import { viewAsPublisher } from '@/lib/accounts';
import type { Principal } from '@/lib/access';
import { AppError } from '@/lib/shared/errors';
import { MAX_PENDING_SITES } from '@/lib/sites/site-admin';
import { DEMO_IDS } from '@/db/seed-data';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite as siteRow } from '../support/factories';
import { issueKey, sessionPrincipal } from '../support/keys';

/** Issue 21, point 3, through the services the dashboard calls: the publisher's side and the history. */
const t = useTestDatabase();

const admin = sessionPrincipal(DEMO_IDS.users.admin, 'admin');
let owner: Principal;
let other: Principal;
beforeAll(async () => {
  owner = sessionPrincipal((await createPublisher(t.db)).id);
  other = sessionPrincipal((await createPublisher(t.db)).id);
});

const GAME = { name: 'Tile Tumble', url: 'https://tile-tumble.test.example', framework: 'pixijs' };

/** The AppError a call throws, for its code and detail. */
async function refusal(call: Promise<unknown>): Promise<AppError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('a publisher adds, edits and deletes its own sites', () => {
  it('adds a pending site it then lists, with its history', async () => {
    const site = await addSite({ ...owner, clientAddress: '203.0.113.9' }, GAME);
    expect(site).toMatchObject({ ...GAME, status: 'pending', publisherId: owner.userId, statusReason: null });
    const own = await listOwnSites(owner);
    expect(own.find((s) => s.siteId === site.siteId)).toMatchObject({ hasRevenue: false, status: 'pending' });
    const [created] = await siteHistory(owner, site.siteId);
    expect(created).toMatchObject({ kind: 'site.created', to: 'pending', from: null, actorKind: 'user' });
    expect(created.actorLabel).toMatch(/@test\.example$/);
  });

  it('edits its pending site, but not a reviewed one nor its status', async () => {
    const site = await addSite(owner, GAME);
    const edited = await editOwnSite(owner, site.siteId, { url: 'https://tile-tumble.test.example/v2' });
    expect(edited.url).toBe('https://tile-tumble.test.example/v2');
    await updateSite(admin, site.siteId, { status: 'approved' });
    expect((await refusal(editOwnSite(owner, site.siteId, { name: 'Tile Tumble 2' }))).code).toBe('forbidden');
    expect((await refusal(updateSite(owner, site.siteId, { status: 'live' }))).code).toBe('forbidden');
  });

  it("cannot see, edit or delete another publisher's site: not found, as if there were none", async () => {
    const site = await addSite(owner, GAME);
    expect((await refusal(editOwnSite(other, site.siteId, { name: 'Mine' }))).code).toBe('not_found');
    expect((await refusal(deleteSite(other, site.siteId))).code).toBe('not_found');
    expect(await siteHistory(other, site.siteId)).toEqual([]);
    expect((await listOwnSites(other)).map((s) => s.siteId)).not.toContain(site.siteId);
  });

  it('deletes a site without revenue, and refuses with 409 one with revenue', async () => {
    const empty = await addSite(owner, GAME);
    await deleteSite(owner, empty.siteId);
    expect(await t.db.select().from(sites).where(eq(sites.id, empty.siteId))).toEqual([]);
    // Its history outlives it.
    expect((await siteHistory(owner, empty.siteId)).map((e) => e.kind)).toEqual(['site.created', 'site.deleted']);

    const earning = await siteRow(t.db, owner.userId);
    await createRevenue(t.db, earning.id, [{ day: t.today, country: 'FR', impressions: 3, revenueMicros: 9 }]);
    const refused = await refusal(deleteSite(admin, earning.id));
    expect(refused.code).toBe('conflict');
    expect(refused.detail).toContain('has revenue');
    expect(await t.db.select().from(sites).where(eq(sites.id, earning.id))).toHaveLength(1);
    expect((await listOwnSites(owner)).find((s) => s.siteId === earning.id)?.hasRevenue).toBe(true);
  });

  it('refuses writes to an operator viewing as the publisher and to a site-scoped key', async () => {
    const { principal: viewing } = await viewAsPublisher(admin, owner.userId);
    expect((await refusal(addSite(viewing, GAME))).code).toBe('forbidden');
    const key = await issueKey(owner.userId);
    const site = await addSite(owner, GAME);
    const scoped: Principal = { ...owner, via: 'apiKey', keyId: key.record.id, siteScope: [site.siteId] };
    expect((await refusal(deleteSite(scoped, site.siteId))).code).toBe('forbidden');
    // Reading is fine for the viewing admin.
    expect((await listOwnSites(viewing)).map((s) => s.siteId)).toContain(site.siteId);
  });

  it('has at most MAX_PENDING_SITES sites waiting for review at once (an operator may add more)', async () => {
    const publisher = sessionPrincipal((await createPublisher(t.db)).id);
    await Promise.all(
      Array.from({ length: MAX_PENDING_SITES }, (_, i) => addSite(publisher, { ...GAME, name: `Game ${i}` })),
    );
    const refused = await refusal(addSite(publisher, GAME));
    expect(refused.code).toBe('conflict');
    expect(refused.detail).toContain(`${MAX_PENDING_SITES} sites waiting for review`);
    const all = await listOwnSites(publisher);
    expect(all).toHaveLength(MAX_PENDING_SITES);
    // A page of the list (the Sites page's) is that slice of the whole, in the same order.
    expect(await listOwnSites(publisher, { limit: 2, offset: 1 })).toEqual(all.slice(1, 3));
    // Reviewed, one leaves the queue and makes room; an admin's additions do not count against the cap.
    const [first] = await listOwnSites(publisher);
    await updateSite(admin, first.siteId, { status: 'approved' });
    await addSite(publisher, GAME);
    await createSite(admin, { publisherId: publisher.userId, ...GAME });
  });

  it('is refused to operators, who own no sites', async () => {
    expect((await refusal(addSite(admin, GAME))).code).toBe('forbidden');
  });
});

describe("the operator's review", () => {
  it('lists the queue pending first, then approved, then live, with the publisher', async () => {
    const publisher = await createPublisher(t.db);
    const live = await createSite(admin, { publisherId: publisher.id, ...GAME, status: 'live' });
    const pending = await createSite(admin, { publisherId: publisher.id, ...GAME, status: 'pending' });
    const approved = await createSite(admin, { publisherId: publisher.id, ...GAME, status: 'approved' });
    const { data: all } = await listSitesForReview(admin, siteListQuery.parse({ pageSize: '1000' }));
    const ranks = all.map((s) => ['pending', 'approved', 'live'].indexOf(s.status ?? 'pending'));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const onlyPending = await listSitesForReview(admin, siteListQuery.parse({ 'FilterList[status]': 'pending' }));
    expect(onlyPending.data.every((s) => s.status === 'pending')).toBe(true);
    expect(onlyPending.meta.totalRows).toBeGreaterThanOrEqual(1);
    const approvedOnes = siteListQuery.parse({ 'FilterList[status]': 'approved', pageSize: '1000' });
    const mine = (await listSitesForReview(admin, approvedOnes)).data.find((s) => s.siteId === approved.siteId);
    expect(mine).toMatchObject({ publisherEmail: publisher.email, publisherName: publisher.name });
    expect([live.status, pending.status]).toEqual(['live', 'pending']);
    expect((await refusal(listSitesForReview(owner, siteListQuery.parse({})))).code).toBe('forbidden');
  });

  it('records a history with every move and reason; the publisher is not shown the operator', async () => {
    const site = await addSite(owner, GAME);
    await updateSite(admin, site.siteId, { status: 'approved' });
    await updateSite(admin, site.siteId, { status: 'pending', statusReason: 'No privacy policy' });
    await updateSite(admin, site.siteId, { status: 'approved' });
    await updateSite(admin, site.siteId, { status: 'live' });
    const history = await siteHistory(owner, site.siteId);
    expect(history.map((e) => [e.kind, e.from, e.to, e.reason])).toEqual([
      ['site.created', null, 'pending', null],
      ['site.status_changed', 'pending', 'approved', null],
      ['site.status_changed', 'approved', 'pending', 'No privacy policy'],
      ['site.status_changed', 'pending', 'approved', null],
      ['site.status_changed', 'approved', 'live', null],
    ]);
    expect(history.slice(1).every((e) => e.actorKind === 'admin' && e.actorLabel === null)).toBe(true);
    const adminView = await siteHistory(admin, site.siteId);
    expect(adminView[1].actorLabel).toBe('admin@example.com');
  });

  it('serializes concurrent reviews of one site: each event starts where the last ended', async () => {
    const site = await addSite(owner, GAME);
    const results = await Promise.allSettled([
      updateSite(admin, site.siteId, { status: 'approved' }),
      updateSite(admin, site.siteId, { status: 'pending', statusReason: 'Broken link' }),
      updateSite(admin, site.siteId, { status: 'approved' }),
    ]);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    const moves = (await siteHistory(admin, site.siteId)).slice(1);
    for (let i = 1; i < moves.length; i++) expect(moves[i].from).toBe(moves[i - 1].to);
  });
});

import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '@/db/schema';
import { isWellFormedApiKey } from '@/lib/keys/key-format';
import { MAX_ACTIVE_KEYS, revokeApiKey, rotateApiKey } from '@/lib/keys/api-keys';
import type { Principal } from '@/lib/access/principal';
import { get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey, rivalKey, sessionPrincipal } from '../support/keys';
import { keyRow } from './api-helpers';

/** rotateApiKey, the dashboard's "Rotate": a replacement like the old key, which keeps working until revoked. */

const t = useTestDatabase();
const DAY = 86_400_000;

/** A publisher of the test's own with `siteCount` sites, as its dashboard session acts. */
async function account(siteCount = 0) {
  const user = await createPublisher(t.db);
  const sites = [];
  for (let i = 0; i < siteCount; i++) sites.push(await createSite(t.db, user.id));
  return { user, sites, principal: sessionPrincipal(user.id) };
}

/** The sites a raw key reads on the API, or its status when it is refused. */
async function reads(raw: string): Promise<string[] | number> {
  const res = await get('/api/v1/sites', { key: raw });
  return res.status === 200 ? res.json.map((s: { siteId: string }) => s.siteId).sort() : res.status;
}

const rejects = (principal: Principal, keyId: string, code: string, detail?: RegExp) =>
  expect(rotateApiKey(principal, keyId)).rejects.toMatchObject({ code, ...(detail ? { detail } : {}) });

describe('rotateApiKey', () => {
  it('creates a replacement with the same label and sites; both keys work until the old one is revoked', async () => {
    const { user, sites, principal } = await account(3);
    const wanted = [sites[0].id, sites[2].id].sort();
    const old = await issueKey(user.id, { label: 'BI tool', siteIds: wanted });

    const rotated = await rotateApiKey(principal, old.record.id);
    expect(Object.keys(rotated).sort()).toEqual(['apiKey', 'key', 'replaces']);
    expect(rotated.replaces).toBe(old.record.id);
    expect(isWellFormedApiKey(rotated.apiKey)).toBe(true);
    expect(rotated.apiKey).not.toBe(old.raw);
    expect(rotated.key.id).not.toBe(old.record.id);
    expect(rotated.key).toMatchObject({
      label: 'BI tool',
      keyPrefix: rotated.apiKey.slice(0, 12),
      expiresAt: null,
      revokedAt: null,
      isActive: true,
    });
    expect([...rotated.key.siteIds!].sort()).toEqual(wanted);

    const row = await keyRow(t.db, rotated.key.id);
    expect(row).toMatchObject({ userId: user.id, createdBy: user.id, label: 'BI tool' });
    expect(row.keyHash).toBe(createHash('sha256').update(rotated.apiKey).digest('hex'));

    // Both work, each reading only the key's sites, until the old one is revoked.
    expect(await reads(rotated.apiKey)).toEqual(wanted);
    expect(await reads(old.raw)).toEqual(wanted);
    expect((await keyRow(t.db, old.record.id)).revokedAt).toBeNull();
    await revokeApiKey(principal, rotated.replaces);
    expect(await reads(old.raw)).toBe(401);
    expect(await reads(rotated.apiKey)).toEqual(wanted);
  });

  it('keeps an account-wide key account-wide and an unlabelled key unlabelled', async () => {
    const { user, sites, principal } = await account(2);
    const old = await issueKey(user.id, { label: null });
    const rotated = await rotateApiKey(principal, old.record.id.toUpperCase());
    expect(rotated.key).toMatchObject({ label: null, siteIds: null });
    expect(await reads(rotated.apiKey)).toEqual(sites.map((s) => s.id).sort());
  });

  it('carries the lifetime over: the replacement expires as long after now as the old key did after its creation', async () => {
    const { user, principal } = await account();
    const old = await issueKey(user.id, { expiresAt: new Date(Date.now() + 30 * DAY).toISOString() });
    const lifetime = Date.parse(old.record.expiresAt!) - Date.parse(old.record.createdAt);
    // Made long ago, so that it is about to expire: its replacement still gets the whole lifetime.
    await t.db
      .update(apiKeys)
      .set({ createdAt: new Date(Date.now() - 29 * DAY), expiresAt: new Date(Date.now() - 29 * DAY + lifetime) })
      .where(eq(apiKeys.id, old.record.id));

    const before = Date.now();
    const rotated = await rotateApiKey(principal, old.record.id);
    const expiresAt = Date.parse(rotated.key.expiresAt!);
    expect(expiresAt).toBeGreaterThanOrEqual(before + lifetime);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + lifetime);
    expect(expiresAt - Date.parse(rotated.key.createdAt)).toBeGreaterThan(lifetime - 5_000);
    expect(expiresAt - Date.parse(rotated.key.createdAt)).toBeLessThan(lifetime + 5_000);
    expect(await reads(rotated.apiKey)).toEqual([]);
  });

  it('refuses a revoked or an expired key with 409 and creates nothing', async () => {
    const { user, principal } = await account();
    const revoked = await issueKey(user.id);
    await revokeApiKey(principal, revoked.record.id);
    const expired = await issueKey(user.id, { expiresAt: new Date(Date.now() + DAY).toISOString() });
    await t.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expired.record.id));
    const stored = async () => (await t.db.select().from(apiKeys).where(eq(apiKeys.userId, user.id))).length;
    const before = await stored();

    await rejects(principal, revoked.record.id, 'conflict', /is revoked and cannot be rotated; create a new key/);
    await rejects(principal, expired.record.id, 'conflict', /is expired and cannot be rotated; create a new key/);
    expect(await stored()).toBe(before);
  });

  it("answers 404 for an unknown id, a malformed id and another account's key, which is left alone", async () => {
    const { user, principal } = await account();
    const other = await rivalKey();
    for (const id of ['3b1f7c52-9a7e-4f0e-8d55-2a4c9e6b7d10', 'not-a-uuid', '', other.record.id]) {
      await rejects(principal, id, 'not_found', new RegExp(`^No API key with id ${id}\\.$`));
    }
    expect(await t.db.select().from(apiKeys).where(eq(apiKeys.createdBy, user.id))).toEqual([]);
    expect((await keyRow(t.db, other.record.id)).revokedAt).toBeNull();
    expect(await reads(other.raw)).not.toBe(401);
  });

  it('is refused with 403 to a site-scoped principal', async () => {
    const { user, sites } = await account(1);
    const old = await issueKey(user.id);
    const scoped: Principal = { ...sessionPrincipal(user.id), siteScope: [sites[0].id], via: 'apiKey' };
    await rejects(scoped, old.record.id, 'forbidden', /needs an account-level API key/);
  });

  it(`keeps the cap: with ${MAX_ACTIVE_KEYS} active keys, rotating is a 409 until one is revoked`, async () => {
    const { user, principal } = await account();
    const old = await issueKey(user.id, { label: 'to rotate' });
    await t.db.insert(apiKeys).values(
      Array.from({ length: MAX_ACTIVE_KEYS - 1 }, (_, i) => ({
        userId: user.id,
        label: `filler ${i}`,
        keyPrefix: 'rpk_filler00',
        keyHash: createHash('sha256').update(`filler ${user.id} ${i}`).digest('hex'),
      })),
    );
    await rejects(principal, old.record.id, 'conflict', /100 active API keys.*revoke one first/);
    expect(await reads(old.raw)).toEqual([]);

    const [filler] = await t.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, user.id), eq(apiKeys.label, 'filler 0')));
    await revokeApiKey(principal, filler.id);
    const rotated = await rotateApiKey(principal, old.record.id);
    expect(rotated.key.label).toBe('to rotate');
    await rejects(principal, old.record.id, 'conflict', /100 active API keys/);
  });
});

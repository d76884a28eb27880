import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys, sites } from '@/db/schema';
import { DEMO_IDS } from '@/db/seed-data';
import { isWellFormedApiKey } from '@/lib/keys/key-format';
import { callApi, get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { adminKey, demoKey, issueKey, rivalKey } from '../support/keys';
import { API_KEY_FIELDS, expectProblem, keyRow } from './api-helpers';

const t = useTestDatabase();

const forUser = (key: string, userId: string, body: unknown = {}) =>
  callApi('POST', `/api/v1/api-keys/for-user/${userId}`, { key, body });
const keysCreatedBy = async (userId: string) =>
  (await t.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.createdBy, userId))).length;

describe('POST /api/v1/api-keys/for-user/{userId}', () => {
  it("lets an operator's key create a key that acts for the publisher and reads the publisher's sites", async () => {
    const admin = await adminKey();
    const res = await forUser(admin.raw, DEMO_IDS.users.demo, { label: 'onboarding' });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['apiKey', 'key']);
    expect(Object.keys(res.json.key).sort()).toEqual(API_KEY_FIELDS);
    expect(res.json.key).toMatchObject({ label: 'onboarding', isActive: true, siteIds: null, revokedAt: null });
    expect(isWellFormedApiKey(res.json.apiKey)).toBe(true);
    expect(res.json.key.keyPrefix).toBe(res.json.apiKey.slice(0, 12));

    const row = await keyRow(t.db, res.json.key.id);
    expect(row.userId).toBe(DEMO_IDS.users.demo);
    expect(row.keyHash).toBe(createHash('sha256').update(res.json.apiKey).digest('hex'));

    const read = await get('/api/v1/sites', { key: res.json.apiKey });
    expect(read.status, read.text).toBe(200);
    const demoSites = await t.db.select({ id: sites.id }).from(sites).where(eq(sites.userId, DEMO_IDS.users.demo));
    expect(read.json.map((s: { siteId: string }) => s.siteId).sort()).toEqual(demoSites.map((s) => s.id).sort());

    // It is one of the publisher's keys, not the admin's.
    const demoList = await get('/api/v1/api-keys', { key: (await demoKey()).raw });
    expect(demoList.json.map((k: { id: string }) => k.id)).toContain(res.json.key.id);
    const adminList = await get('/api/v1/api-keys', { key: admin.raw });
    expect(adminList.json.map((k: { id: string }) => k.id)).not.toContain(res.json.key.id);
  });

  it('creates a site-scoped key within the target account, and refuses sites of any other account', async () => {
    const admin = await adminKey();
    const publisher = await createPublisher(t.db);
    const [own] = [await createSite(t.db, publisher.id), await createSite(t.db, publisher.id)];
    const res = await forUser(admin.raw, publisher.id, { siteIds: [own.id] });
    expect(res.status, res.text).toBe(200);
    expect(res.json.key.siteIds).toEqual([own.id]);
    const read = await get('/api/v1/sites', { key: res.json.apiKey });
    expect(read.json.map((s: { siteId: string }) => s.siteId)).toEqual([own.id]);

    const path = `/api/v1/api-keys/for-user/${publisher.id}`;
    expectProblem(await forUser(admin.raw, publisher.id, { siteIds: [DEMO_IDS.sites.skyHopper] }), 403, path);
  });

  it('honours the body rules of plain creation', async () => {
    const admin = await adminKey();
    const path = `/api/v1/api-keys/for-user/${DEMO_IDS.users.rival}`;
    const past = await forUser(admin.raw, DEMO_IDS.users.rival, { expiresAt: '2020-01-01T00:00:00Z' });
    expect(expectProblem(past, 400, path).errors.map((e: { parameter: string }) => e.parameter)).toEqual(['expiresAt']);
    const unknown = await forUser(admin.raw, DEMO_IDS.users.rival, { userId: DEMO_IDS.users.demo });
    expect(expectProblem(unknown, 400, path).errors.map((e: { parameter: string }) => e.parameter)).toEqual(['userId']);
  });

  it('is closed to publisher keys with 403, whoever the target is', async () => {
    const demo = await demoKey();
    const rival = await rivalKey();
    const before = await keysCreatedBy(DEMO_IDS.users.demo);
    for (const target of [DEMO_IDS.users.rival, DEMO_IDS.users.demo]) {
      expectProblem(await forUser(demo.raw, target), 403, `/api/v1/api-keys/for-user/${target}`);
    }
    expectProblem(
      await forUser(rival.raw, DEMO_IDS.users.demo),
      403,
      `/api/v1/api-keys/for-user/${DEMO_IDS.users.demo}`,
    );
    expect(await keysCreatedBy(DEMO_IDS.users.demo)).toBe(before);
  });

  it('answers 404 for an unknown, a malformed or a non-publisher userId', async () => {
    const admin = await adminKey();
    const before = await keysCreatedBy(DEMO_IDS.users.admin);
    for (const userId of ['6f1d2c3b-4a5e-4f60-9b7c-8d9e0f1a2b3c', 'not-a-uuid', '42', DEMO_IDS.users.admin]) {
      expectProblem(await forUser(admin.raw, userId), 404, `/api/v1/api-keys/for-user/${userId}`);
    }
    expect(await keysCreatedBy(DEMO_IDS.users.admin)).toBe(before);
  });

  it('accepts the userId in upper case', async () => {
    const admin = await adminKey();
    const publisher = await createPublisher(t.db);
    const res = await forUser(admin.raw, publisher.id.toUpperCase());
    expect(res.status, res.text).toBe(200);
    expect((await keyRow(t.db, res.json.key.id)).userId).toBe(publisher.id);
  });

  it("is refused to an operator's key that was revoked", async () => {
    const admin = await issueKey(DEMO_IDS.users.admin, {}, 'admin');
    await t.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, admin.record.id));
    const path = `/api/v1/api-keys/for-user/${DEMO_IDS.users.demo}`;
    expectProblem(await forUser(admin.raw, DEMO_IDS.users.demo), 401, path);
  });

  it('answers 405 with Allow: POST to other methods', async () => {
    const admin = await adminKey();
    const path = `/api/v1/api-keys/for-user/${DEMO_IDS.users.demo}`;
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const res = await callApi(method, path, { key: admin.raw });
      expectProblem(res, 405, path);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    }
  });
});

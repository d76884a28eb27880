import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '@/db/schema';
import { DEMO_IDS } from '@/db/seed-data';
import { isWellFormedApiKey } from '@/lib/keys/key-format';
import { MAX_ACTIVE_KEYS } from '@/lib/keys/api-keys';
import { callApi, get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey, rivalKey } from '../support/keys';
import { API_KEY_FIELDS, ISO_RE, UUID_RE, expectProblem, keyRow, parameters, sleep } from './api-helpers';

const t = useTestDatabase();
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** A publisher of the test's own with `siteCount` sites and an account-level key. */
async function account(siteCount = 0) {
  const user = await createPublisher(t.db);
  const sites = [];
  for (let i = 0; i < siteCount; i++) sites.push(await createSite(t.db, user.id));
  const { raw } = await issueKey(user.id);
  return { user, sites, key: raw };
}

const create = (key: string, body: unknown = {}) => callApi('POST', '/api/v1/api-keys', { key, body });
const list = (key: string) => get('/api/v1/api-keys', { key });
const revoke = (key: string, id: string) => callApi('DELETE', `/api/v1/api-keys/${id}`, { key });
const storedKeysOf = (userId: string) => t.db.select().from(apiKeys).where(eq(apiKeys.userId, userId));

describe('POST /api/v1/api-keys', () => {
  it('returns the stored record and the raw key, with exactly the documented fields', async () => {
    const { user, key } = await account();
    const before = Date.now();
    const res = await create(key, { label: 'reporting job' });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.json).sort()).toEqual(['apiKey', 'key']);
    const { key: record, apiKey } = res.json;
    expect(Object.keys(record).sort()).toEqual(API_KEY_FIELDS);
    expect(apiKey).toMatch(/^rpk_[0-9A-Za-z]{38}$/);
    expect(isWellFormedApiKey(apiKey)).toBe(true);
    expect(record).toMatchObject({
      label: 'reporting job',
      keyPrefix: apiKey.slice(0, 12),
      siteIds: null,
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
      isActive: true,
    });
    expect(record.id).toMatch(UUID_RE);
    expect(record.createdAt).toMatch(ISO_RE);
    expect(Date.parse(record.createdAt)).toBeGreaterThan(before - 60_000);
    expect(Date.parse(record.createdAt)).toBeLessThan(Date.now() + 60_000);

    const row = await keyRow(t.db, record.id);
    expect(row.userId).toBe(user.id);
    expect(row.keyHash).toBe(sha256(apiKey));
    expect(row.keyPrefix).toBe(apiKey.slice(0, 12));
    expect(row.createdAt.toISOString()).toBe(record.createdAt);
    // The secret part of the key is nowhere in the stored row.
    expect(JSON.stringify(row)).not.toContain(apiKey.slice(12));
  });

  it('hands out a key that works at once and acts for the account', async () => {
    const { key, sites } = await account(2);
    const { apiKey } = (await create(key)).json;
    const res = await get('/api/v1/sites', { key: apiKey });
    expect(res.status, res.text).toBe(200);
    expect(res.json.map((s: { siteId: string }) => s.siteId).sort()).toEqual(sites.map((s) => s.id).sort());
  });

  it('refuses an expiresAt in the past and creates nothing', async () => {
    const { user, key } = await account();
    for (const expiresAt of [new Date(Date.now() - 1000).toISOString(), '2001-01-01T00:00:00Z']) {
      const res = await create(key, { expiresAt });
      expectProblem(res, 400, '/api/v1/api-keys');
      expect(parameters(res)).toEqual(['expiresAt']);
    }
    expect(await storedKeysOf(user.id)).toHaveLength(1);
  });

  it('refuses siteIds that are not sites of the account with 403 and creates nothing', async () => {
    const { user, key, sites } = await account(1);
    const foreign = [
      [DEMO_IDS.sites.bubblePop],
      [sites[0].id, DEMO_IDS.sites.skyHopper],
      ['7d4c0b7e-0000-4000-8000-000000000000'],
    ];
    for (const siteIds of foreign) expectProblem(await create(key, { siteIds }), 403, '/api/v1/api-keys');
    expect(await storedKeysOf(user.id)).toHaveLength(1);
  });

  it(`holds at most ${MAX_ACTIVE_KEYS} active keys per account, exactly, even when asked at once: then 409`, async () => {
    const { user, key } = await account();
    // The account's own key, MAX - 2 more active ones, and a revoked and an expired one that do not count.
    const past = new Date(Date.now() - 60_000);
    const filler = (i: number, extra: Partial<typeof apiKeys.$inferInsert> = {}) => ({
      userId: user.id,
      label: `filler ${i}`,
      keyPrefix: 'rpk_filler00',
      keyHash: sha256(`filler ${user.id} ${i}`),
      ...extra,
    });
    await t.db
      .insert(apiKeys)
      .values([
        ...Array.from({ length: MAX_ACTIVE_KEYS - 2 }, (_, i) => filler(i)),
        filler(-1, { revokedAt: past }),
        filler(-2, { expiresAt: past }),
      ]);

    const answers = await Promise.all([create(key), create(key), create(key)]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409, 409]);
    const refused = answers.find((res) => res.status === 409)!;
    expect(expectProblem(refused, 409, '/api/v1/api-keys').detail).toMatch(/100 active API keys.*revoke one first/);
    expect((await list(key)).json.filter((k: { isActive: boolean }) => k.isActive)).toHaveLength(MAX_ACTIVE_KEYS);

    const [spare] = await storedKeysOf(user.id).then((rows) => rows.filter((r) => r.label === 'filler 0'));
    expect((await revoke(key, spare.id)).status).toBe(200);
    expect((await create(key)).status).toBe(200);
    expect((await create(key)).status).toBe(409);
  });
});

describe('site-scoped keys', () => {
  it('echo their siteIds and read only those sites', async () => {
    const { key, sites } = await account(3);
    const wanted = [sites[0].id, sites[2].id];
    const res = await create(key, { siteIds: [wanted[0].toUpperCase(), wanted[1], wanted[1]] });
    expect(res.status, res.text).toBe(200);
    expect([...res.json.key.siteIds].sort()).toEqual([...wanted].sort());
    expect((await keyRow(t.db, res.json.key.id)).siteIds?.sort()).toEqual([...wanted].sort());
    const listed = (await list(key)).json.find((k: { id: string }) => k.id === res.json.key.id);
    expect([...listed.siteIds].sort()).toEqual([...wanted].sort());
    const read = await get('/api/v1/sites', { key: res.json.apiKey });
    expect(read.json.map((s: { siteId: string }) => s.siteId).sort()).toEqual([...wanted].sort());
  });

  it('may not list, create or revoke keys', async () => {
    const { user, key, sites } = await account(1);
    const scoped = (await create(key, { siteIds: [sites[0].id] })).json;
    expectProblem(await list(scoped.apiKey), 403, '/api/v1/api-keys');
    expectProblem(await create(scoped.apiKey, { label: 'escalate' }), 403, '/api/v1/api-keys');
    expectProblem(await revoke(scoped.apiKey, scoped.key.id), 403, `/api/v1/api-keys/${scoped.key.id}`);
    expect(await storedKeysOf(user.id)).toHaveLength(2);
    expect((await keyRow(t.db, scoped.key.id)).revokedAt).toBeNull();
    expect((await get('/api/v1/sites', { key: scoped.apiKey })).status).toBe(200);
  });
});

describe('GET /api/v1/api-keys', () => {
  it('lists every key of the account newest first, revoked ones included, never a raw key or a hash', async () => {
    const { user, key } = await account();
    const made = [];
    for (const label of ['one', 'two', 'three']) made.push((await create(key, { label })).json);
    expect((await revoke(key, made[1].key.id)).status).toBe(200);

    const res = await list(key);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const stored = await storedKeysOf(user.id);
    expect(res.json).toHaveLength(stored.length);
    expect(res.json.slice(0, 3).map((k: { id: string }) => k.id)).toEqual(made.map((m) => m.key.id).reverse());
    for (const item of res.json) expect(Object.keys(item).sort()).toEqual(API_KEY_FIELDS);
    const times = res.json.map((k: { createdAt: string }) => Date.parse(k.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const byId = new Map(res.json.map((k: { id: string }) => [k.id, k]));
    expect(byId.get(made[0].key.id)).toMatchObject({ label: 'one', isActive: true, revokedAt: null });
    const revoked = byId.get(made[1].key.id) as { isActive: boolean; revokedAt: string };
    expect(revoked.isActive).toBe(false);
    expect(revoked.revokedAt).toBe((await keyRow(t.db, made[1].key.id)).revokedAt?.toISOString());

    for (const m of made) {
      expect(res.text).not.toContain(m.apiKey.slice(12));
      expect(res.text).toContain(m.apiKey.slice(0, 12));
    }
    for (const row of stored) expect(res.text).not.toContain(row.keyHash.slice(0, 16));
  });

  it("shows nothing of another account's keys", async () => {
    const a = await account();
    const b = await account();
    const ids = (await list(a.key)).json.map((k: { id: string }) => k.id);
    const theirs = (await storedKeysOf(b.user.id)).map((r) => r.id);
    expect(ids).toHaveLength(1);
    for (const id of theirs) expect(ids).not.toContain(id);
  });
});

describe('DELETE /api/v1/api-keys/{id}', () => {
  it('answers 200 with no body, and the key stops working on the very next request', async () => {
    const { key } = await account();
    const victim = (await create(key)).json;
    expect((await get('/api/v1/sites', { key: victim.apiKey })).status).toBe(200);
    const res = await revoke(key, victim.key.id);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe('');
    expect((await keyRow(t.db, victim.key.id)).revokedAt).toBeInstanceOf(Date);
    expectProblem(await get('/api/v1/sites', { key: victim.apiKey }), 401, '/api/v1/sites');
  });

  it('keeps the first revocation time when revoked again', async () => {
    const { key } = await account();
    const victim = (await create(key)).json;
    expect((await revoke(key, victim.key.id)).status).toBe(200);
    const first = (await keyRow(t.db, victim.key.id)).revokedAt!;
    await sleep(20);
    const again = await revoke(key, victim.key.id.toUpperCase());
    expect(again.status, again.text).toBe(200);
    expect(again.text).toBe('');
    expect((await keyRow(t.db, victim.key.id)).revokedAt!.getTime()).toBe(first.getTime());
    const listed = (await list(key)).json.find((k: { id: string }) => k.id === victim.key.id);
    expect(listed.revokedAt).toBe(first.toISOString());
  });

  it('answers 404 for an unknown id, a malformed id and a key of another account, which keeps working', async () => {
    const { key } = await account();
    const other = await rivalKey();
    for (const id of ['3b1f7c52-9a7e-4f0e-8d55-2a4c9e6b7d10', 'not-a-uuid', '123', other.record.id]) {
      expectProblem(await revoke(key, id), 404, `/api/v1/api-keys/${id}`);
    }
    expect((await keyRow(t.db, other.record.id)).revokedAt).toBeNull();
    expect((await get('/api/v1/sites', { key: other.raw })).status).toBe(200);
  });
});

describe('expiry', () => {
  it('is honoured to the second: the key works until expiresAt and answers 401 from then on', async () => {
    const { key } = await account();
    const expiresAt = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
    const res = await create(key, { expiresAt: expiresAt.toISOString() });
    expect(res.status, res.text).toBe(200);
    expect(res.json.key).toMatchObject({ expiresAt: expiresAt.toISOString(), isActive: true });
    expect((await keyRow(t.db, res.json.key.id)).expiresAt?.getTime()).toBe(expiresAt.getTime());
    expect((await get('/api/v1/sites', { key: res.json.apiKey })).status).toBe(200);

    await sleep(expiresAt.getTime() - Date.now() + 30);
    expectProblem(await get('/api/v1/sites', { key: res.json.apiKey }), 401, '/api/v1/sites');
    const listed = (await list(key)).json.find((k: { id: string }) => k.id === res.json.key.id);
    expect(listed).toMatchObject({ isActive: false, revokedAt: null, expiresAt: expiresAt.toISOString() });
  });

  it('accepts an offset and stores the same instant', async () => {
    const { key } = await account();
    const res = await create(key, { expiresAt: '2099-06-30T14:00:00+02:00' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.key.expiresAt).toBe('2099-06-30T12:00:00.000Z');
  });
});

describe('lastUsedAt', () => {
  it('is null before the first use, set by a request, and not rewritten within the minute', async () => {
    const { key } = await account();
    const fresh = (await create(key)).json;
    expect((await list(key)).json.find((k: { id: string }) => k.id === fresh.key.id).lastUsedAt).toBeNull();
    expect((await keyRow(t.db, fresh.key.id)).lastUsedAt).toBeNull();

    const before = Date.now();
    expect((await get('/api/v1/sites', { key: fresh.apiKey })).status).toBe(200);
    const first = (await keyRow(t.db, fresh.key.id)).lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    expect(first!.getTime()).toBeGreaterThan(before - 5_000);
    expect(first!.getTime()).toBeLessThan(Date.now() + 5_000);

    await sleep(20);
    expect((await get('/api/v1/sites', { key: fresh.apiKey })).status).toBe(200);
    expect((await get('/api/v1/api-keys', { key: fresh.apiKey })).status).toBe(200);
    expect((await keyRow(t.db, fresh.key.id)).lastUsedAt!.getTime()).toBe(first!.getTime());
    const listed = (await list(key)).json.find((k: { id: string }) => k.id === fresh.key.id);
    expect(listed.lastUsedAt).toBe(first!.toISOString());
  });

  it('is not set by a request that was refused', async () => {
    const { key } = await account();
    const fresh = (await create(key)).json;
    await revoke(key, fresh.key.id);
    expect((await get('/api/v1/sites', { key: fresh.apiKey })).status).toBe(401);
    expect((await keyRow(t.db, fresh.key.id)).lastUsedAt).toBeNull();
  });
});

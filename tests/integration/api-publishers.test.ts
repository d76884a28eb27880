import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, auditEvents, invitations, mailOutbox, memberships, people, sessions, users } from '@/db/schema';
import { DEMO_IDS } from '@/db/seed-data';
import { signIn, personForSession } from '@/lib/identity';
import { revokeApiKey } from '@/lib/keys/api-keys';
import { sha256Hex } from '@/lib/shared/crypto';
import { callApi, get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { adminKey, issueKey, sessionPrincipal } from '../support/keys';
import { expectProblem, parameters } from './api-helpers';

const t = useTestDatabase();
const BASE = '/api/v1/admin/publishers';
const PUBLISHER_FIELDS = ['createdAt', 'email', 'id', 'lastSignInAt', 'name', 'sites', 'status'];

let admin: string;
beforeAll(async () => {
  admin = (await adminKey()).raw;
});

const newEmail = () => `invitee-${randomUUID().slice(0, 8)}@Test.Example`;
const create = (body: unknown, key = admin) => callApi('POST', BASE, { key, body });
const action = (id: string, what: 'deactivate' | 'reactivate' | 'invitation', key = admin) =>
  callApi('POST', `${BASE}/${id}/${what}`, { key });
const eventsOf = async (accountId: string) =>
  (await t.db.select().from(auditEvents).where(eq(auditEvents.accountId, accountId)).orderBy(auditEvents.id)).map(
    (e) => e.kind,
  );
const invitationMails = (to: string) =>
  t.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, to), eq(mailOutbox.kind, 'invitation')))
    .orderBy(desc(mailOutbox.createdAt));
const tokenIn = (text: string) => /\/invitation\/([A-Za-z0-9_-]{20,})/.exec(text)![1];

describe('POST /api/v1/admin/publishers', () => {
  it('creates an invited account without a password and queues its invitation, all logged', async () => {
    const email = newEmail();
    const res = await create({ email, name: '  Ada Lovelace ' });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(PUBLISHER_FIELDS);
    expect(res.json).toMatchObject({
      email: email.toLowerCase(),
      name: 'Ada Lovelace',
      status: 'invited',
      sites: 0,
      lastSignInAt: null,
    });
    expect(res.text).not.toMatch(/invitation\//);

    const [row] = await t.db.select().from(users).where(eq(users.id, res.json.id));
    expect(row).toMatchObject({ role: 'publisher', status: 'invited' });
    expect(await t.db.select().from(memberships).where(eq(memberships.accountId, row.id))).toEqual([]);

    const [mail] = await invitationMails(email.toLowerCase());
    expect(mail.subject).toBe('Join Ada Lovelace on the Publisher Portal');
    expect(mail.secret).toBe(true);
    const token = tokenIn(mail.text);
    expect(mail.text).toContain(`http://localhost:3000/invitation/${token}`);
    expect(mail.html).toContain(`/invitation/${token}`);
    const [stored] = await t.db.select().from(invitations).where(eq(invitations.accountId, res.json.id));
    expect(stored).toMatchObject({ tokenHash: sha256Hex(token), role: 'owner', email: email.toLowerCase() });
    const hours = (stored.expiresAt.getTime() - stored.createdAt.getTime()) / 3_600_000;
    expect(Math.round(hours)).toBe(72);

    expect(await eventsOf(res.json.id)).toEqual(['account.created', 'invitation.sent']);
  });

  it('answers 409 for an e-mail in use, in any letter case, and creates nothing', async () => {
    const email = newEmail();
    expect((await create({ email, name: 'First' })).status).toBe(200);
    for (const again of [email.toUpperCase(), ` ${email.toLowerCase()} `]) {
      const body = expectProblem(await create({ email: again, name: 'Twin' }), 409, BASE);
      expect(body.detail).toContain(email.toLowerCase());
    }
    expectProblem(await create({ email: 'demo@example.com', name: 'Demo twin' }), 409, BASE);
    const rows = await t.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    expect(rows).toHaveLength(1);
  });

  it('answers 400 naming each wrong field', async () => {
    const empty = await create({});
    expectProblem(empty, 400, BASE);
    expect(parameters(empty)).toEqual(['email', 'name']);
    expect(parameters(await create({ email: 'not-an-address', name: 'x' }))).toEqual(['email']);
    expect(parameters(await create({ email: newEmail(), name: '   ' }))).toEqual(['name']);
    expect(parameters(await create({ email: newEmail(), name: 'x', password: 'set-by-admin' }))).toEqual(['password']);
    expect(parameters(await create({ email: newEmail(), name: 'x'.repeat(101) }))).toEqual(['name']);
  });

  it('is for operators only: 401 without a key, 403 for publisher keys, account-level or site-scoped', async () => {
    const owner = await createPublisher(t.db);
    const site = await createSite(t.db, owner.id);
    const body = { email: newEmail(), name: 'Nope' };
    expectProblem(await callApi('POST', BASE, { body }), 401, BASE);
    expectProblem(await create(body, (await issueKey(owner.id)).raw), 403, BASE);
    expectProblem(await create(body, (await issueKey(owner.id, { siteIds: [site.id] })).raw), 403, BASE);
    expect(await t.db.select().from(users).where(eq(users.email, body.email.toLowerCase()))).toHaveLength(0);
  });
});

describe('GET /api/v1/admin/publishers', () => {
  it('pages the publishers with status, sites and last sign-in, filtered and searched', async () => {
    const tag = randomUUID().slice(0, 8);
    const active = await createPublisher(t.db, { name: `Paged ${tag} A` });
    // The account's last sign-in is its members' latest.
    await t.db
      .update(people)
      .set({ lastSignInAt: new Date('2026-01-02T03:04:05Z') })
      .where(eq(people.id, active.id));
    await createSite(t.db, active.id);
    await createSite(t.db, active.id);
    const invited = await createPublisher(t.db, { name: `Paged ${tag} B`, status: 'invited' });

    const res = await get(`${BASE}?Search=${tag}&pageSize=1`, { key: admin });
    expect(res.status, res.text).toBe(200);
    expect(res.json.meta).toMatchObject({ page: 1, pageSize: 1, totalRows: 2, totalPages: 2 });
    expect(res.json.data).toEqual([
      {
        id: active.id,
        name: active.name,
        email: active.email,
        status: 'active',
        sites: 2,
        lastSignInAt: '2026-01-02T03:04:05.000Z',
        createdAt: active.createdAt.toISOString(),
      },
    ]);
    expect(res.headers.get('link')).toContain('rel="next"');

    const filtered = await get(`${BASE}?Search=${tag}&Filter=status==invited`, { key: admin });
    expect(filtered.json.data.map((p: { id: string }) => p.id)).toEqual([invited.id]);
    const sorted = await get(`${BASE}?Search=${tag}&sortBy=SITES&sortDirection=desc`, { key: admin });
    expect(sorted.json.data.map((p: { id: string }) => p.id)).toEqual([active.id, invited.id]);

    const csv = await get(`${BASE}?Search=${tag}`, { key: admin, headers: { Accept: 'text/csv' } });
    expect(csv.text.split('\n')[0]).toMatch(/^"?id"?,"?name"?,"?email"?/);
  });

  it('lists no operator account and never a password hash', async () => {
    const res = await get(`${BASE}?pageSize=1000`, { key: admin });
    const ids = res.json.data.map((p: { id: string }) => p.id);
    expect(ids).not.toContain(DEMO_IDS.users.admin);
    expect(ids).toContain(DEMO_IDS.users.demo);
    expect(res.text).not.toMatch(/\$argon2/);
  });

  it('answers 400 for a wrong parameter and 403 to publishers', async () => {
    const badSort = await get(`${BASE}?sortBy=password`, { key: admin });
    expectProblem(badSort, 400, BASE);
    expect(parameters(badSort)).toEqual(['sortBy']);
    expect(parameters(await get(`${BASE}?pageSize=0&role=admin`, { key: admin })).sort()).toEqual(['pageSize', 'role']);
    const publisher = await createPublisher(t.db);
    expectProblem(await get(BASE, { key: (await issueKey(publisher.id)).raw }), 403, BASE);
    expectProblem(await get(BASE), 401, BASE);
  });
});

describe('deactivate and reactivate', () => {
  it('ends every session at once and makes every key answer 401 exactly like a revoked key; data stays', async () => {
    const password = 'a long enough password';
    const publisher = await createPublisher(t.db, { password });
    const site = await createSite(t.db, publisher.id);
    const session = await signIn(publisher.email, password, '192.0.2.201');
    if (!session.ok) throw new Error('sign-in failed');
    const key = await issueKey(publisher.id);
    const revoked = await issueKey(publisher.id);
    await revokeApiKey(sessionPrincipal(publisher.id), revoked.record.id);
    expect((await get('/api/v1/sites', { key: key.raw })).status).toBe(200);

    const res = await action(publisher.id, 'deactivate');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ id: publisher.id, status: 'deactivated', sites: 1 });

    expect(await personForSession(session.token)).toBeNull();
    expect(await t.db.select().from(sessions).where(eq(sessions.personId, publisher.id))).toHaveLength(0);
    const refused = await get('/api/v1/sites', { key: key.raw });
    const asRevoked = await get('/api/v1/sites', { key: revoked.raw });
    expectProblem(refused, 401, '/api/v1/sites');
    const sameness = (body: Record<string, unknown>) => ({ ...body, instance: null, requestId: null });
    expect(sameness(refused.json)).toEqual(sameness(asRevoked.json));
    expect(refused.headers.get('www-authenticate')).toBe(asRevoked.headers.get('www-authenticate'));
    const keys = await t.db.select().from(apiKeys).where(eq(apiKeys.userId, publisher.id));
    expect(keys.every((k) => k.revokedAt !== null)).toBe(true);
    expect(await signIn(publisher.email, password, '192.0.2.202')).toEqual({ ok: false, reason: 'invalid' });

    // Its data stays; a second deactivation names the state.
    expect(res.json.sites).toBe(1);
    expect(site.userId).toBe(publisher.id);
    const again = expectProblem(await action(publisher.id, 'deactivate'), 409, `${BASE}/${publisher.id}/deactivate`);
    expect(again.detail).toMatch(/deactivated/);

    // Reactivation lets it sign in again but revives no key and no session.
    const back = await action(publisher.id, 'reactivate');
    expect(back.status, back.text).toBe(200);
    expect(back.json.status).toBe('active');
    expect(await personForSession(session.token)).toBeNull();
    expectProblem(await get('/api/v1/sites', { key: key.raw }), 401, '/api/v1/sites');
    expect((await signIn(publisher.email, password, '192.0.2.203')).ok).toBe(true);
    const twice = expectProblem(await action(publisher.id, 'reactivate'), 409, `${BASE}/${publisher.id}/reactivate`);
    expect(twice.detail).toMatch(/active/);

    expect(await eventsOf(publisher.id)).toEqual(
      expect.arrayContaining(['account.deactivated', 'account.reactivated', 'sign_in.failed', 'sign_in.succeeded']),
    );
  });

  it("refuses a deactivated account's key even where its revocation did not happen (the status is checked too)", async () => {
    const publisher = await createPublisher(t.db);
    const key = await issueKey(publisher.id);
    await t.db.update(users).set({ status: 'deactivated' }).where(eq(users.id, publisher.id));
    expectProblem(await get('/api/v1/sites', { key: key.raw }), 401, '/api/v1/sites');
  });

  it('refuses to create a key for a deactivated account, which would not work', async () => {
    const publisher = await createPublisher(t.db);
    await action(publisher.id, 'deactivate');
    const path = `/api/v1/api-keys/for-user/${publisher.id}`;
    const refused = await callApi('POST', path, { key: admin, body: { label: 'too late' } });
    expect(expectProblem(refused, 409, path).detail).toMatch(/deactivated/);
  });

  it('reactivates an account that never set a password as invited', async () => {
    const created = await create({ email: newEmail(), name: 'Never accepted' });
    expect((await action(created.json.id, 'deactivate')).json.status).toBe('deactivated');
    expect((await action(created.json.id, 'reactivate')).json.status).toBe('invited');
  });

  it('answers 404 for an unknown id, a malformed id and an operator, and 403 to publishers', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', DEMO_IDS.users.admin]) {
      expectProblem(await action(id, 'deactivate'), 404, `${BASE}/${id}/deactivate`);
    }
    const publisher = await createPublisher(t.db);
    const own = (await issueKey(publisher.id)).raw;
    for (const what of ['deactivate', 'reactivate', 'invitation'] as const) {
      expectProblem(await action(publisher.id, what, own), 403, `${BASE}/${publisher.id}/${what}`);
      expectProblem(await callApi('POST', `${BASE}/${publisher.id}/${what}`), 401, `${BASE}/${publisher.id}/${what}`);
    }
    const [row] = await t.db.select().from(users).where(eq(users.id, publisher.id));
    expect(row.status).toBe('active');
  });
});

describe('POST /api/v1/admin/publishers/{id}/invitation', () => {
  it('sends a new link and voids the earlier one', async () => {
    const email = newEmail().toLowerCase();
    const created = await create({ email, name: 'Resent' });
    const first = tokenIn((await invitationMails(email))[0].text);
    const res = await action(created.json.id, 'invitation');
    expect(res.status, res.text).toBe(200);
    expect(res.json.status).toBe('invited');
    const mails = await invitationMails(email);
    expect(mails).toHaveLength(2);
    const second = tokenIn(mails[0].text) === first ? tokenIn(mails[1].text) : tokenIn(mails[0].text);
    const stored = await t.db.select().from(invitations).where(eq(invitations.accountId, created.json.id));
    expect(stored.map((s) => s.tokenHash)).toEqual([sha256Hex(second)]);
    expect(await eventsOf(created.json.id)).toEqual(['account.created', 'invitation.sent', 'invitation.sent']);
  });

  it('answers 409 naming the state for an active or a deactivated account', async () => {
    const publisher = await createPublisher(t.db);
    const path = `${BASE}/${publisher.id}/invitation`;
    expect(expectProblem(await action(publisher.id, 'invitation'), 409, path).detail).toMatch(/active/);
    await action(publisher.id, 'deactivate');
    expect(expectProblem(await action(publisher.id, 'invitation'), 409, path).detail).toMatch(/deactivated/);
  });
});

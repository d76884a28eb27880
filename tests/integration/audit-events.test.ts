/**
 * Issue 21, point 5: the activity log. Key management, an admin's viewing as a publisher and revenue ingestion
 * append events (who, which account, from where); GET /api/v1/audit-events reads them, the account's own for
 * its keys and every account's for an admin's, with the reports' paging and Filter grammar, as JSON or CSV;
 * nothing can rewrite or remove an event.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/db/seed-data';
import { viewAsPublisher } from '@/lib/accounts';
import { callApi, get } from '../support/api';
import { stamped } from '../support/client-address';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { adminKey, issueKey, sessionPrincipal } from '../support/keys';
import { expectProblem } from './api-helpers';

const t = useTestDatabase();
const ADDRESS = '2001:db8:a0d1::7';
let owner: { id: string; email: string };
let other: { id: string };
let ownerKey: string;
let admin: string;
let siteId: string;

const events = (key: string, query = '') => get(`/api/v1/audit-events${query}`, { key });

beforeAll(async () => {
  owner = await createPublisher(t.db);
  other = await createPublisher(t.db);
  siteId = (await createSite(t.db, owner.id)).id;
  ownerKey = (await issueKey(owner.id, { label: 'owner' })).raw;
  admin = (await adminKey()).raw;
});

describe('what key management records', () => {
  it('records created, rotated and revoked with the actor, the account and the client address', async () => {
    const created = await callApi('POST', '/api/v1/api-keys', {
      key: ownerKey,
      body: { label: 'ci' },
      headers: stamped(ADDRESS),
    });
    expect(created.status).toBe(200);
    const id = created.json.key.id as string;
    expect((await callApi('DELETE', `/api/v1/api-keys/${id}`, { key: ownerKey })).status).toBe(200);
    // Revoking again changes nothing and records nothing.
    expect((await callApi('DELETE', `/api/v1/api-keys/${id}`, { key: ownerKey })).status).toBe(200);

    const page = await events(ownerKey, `?Filter=subjectId==${id}`);
    expect(page.status).toBe(200);
    expect(page.json.data.map((e: { kind: string }) => e.kind)).toEqual(['key.revoked', 'key.created']);
    const [, createdEvent] = page.json.data;
    expect(createdEvent).toMatchObject({
      actorKind: 'key',
      accountId: owner.id,
      subjectId: id,
      clientAddress: ADDRESS,
      details: { label: 'ci', prefix: created.json.key.keyPrefix },
    });
    // The acting key is named by its prefix only: never its secret or its hash.
    expect(createdEvent.actorLabel).toMatch(/^rpk_\w{8}…$/);
    expect(page.text).not.toContain(created.json.apiKey);
  });

  it('records a rotation with the key it replaces', async () => {
    const { record } = await issueKey(owner.id, { label: 'to rotate' });
    const { rotateApiKey } = await import('@/lib/keys');
    const rotated = await rotateApiKey(sessionPrincipal(owner.id), record.id);
    const page = await events(ownerKey, `?Filter=kind==key.rotated;subjectId==${rotated.key.id}`);
    expect(page.json.data).toHaveLength(1);
    expect(page.json.data[0]).toMatchObject({
      actorKind: 'user',
      actorId: owner.id,
      actorLabel: owner.email,
      details: { replaces: record.id },
    });
  });
});

describe('GET /api/v1/audit-events', () => {
  it("answers an account's key with its own account's events only, and an operator's with all", async () => {
    await issueKey(other.id, { label: 'elsewhere' });
    const own = await events(ownerKey, '?pageSize=1000');
    expect(own.json.data.length).toBeGreaterThan(0);
    expect(own.json.data.every((e: { accountId: string }) => e.accountId === owner.id)).toBe(true);

    const all = await events(admin, `?Filter=accountId==${other.id}`);
    expect(all.status).toBe(200);
    expect(all.json.data.length).toBeGreaterThan(0);
    expect(all.json.data.every((e: { accountId: string }) => e.accountId === other.id)).toBe(true);
    // The admin's filter on another account, asked with the owner's key, still finds only the owner's.
    expect((await events(ownerKey, `?Filter=accountId==${other.id}`)).json.data).toEqual([]);
  });

  it('reads newest first, pages with meta and Link, and sorts by any field', async () => {
    const page = await events(ownerKey, '?pageSize=2');
    expect(page.json.meta).toMatchObject({ page: 1, pageSize: 2, sortBy: 'at', sortDirection: 'desc' });
    const [first, second] = page.json.data;
    expect(first.id).toBeGreaterThan(second.id);
    expect(page.headers.get('link')).toContain('rel="next"');
    const ascending = await events(ownerKey, '?sortBy=id&sortDirection=asc&pageSize=1000');
    const ids = ascending.json.data.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('searches kind, actor and address, and answers CSV with details as JSON text', async () => {
    const found = await events(ownerKey, '?Search=REVOKED');
    expect(found.json.data.length).toBeGreaterThan(0);
    expect(found.json.data.every((e: { kind: string }) => e.kind === 'key.revoked')).toBe(true);

    const csv = await get('/api/v1/audit-events?Filter=kind==key.created', {
      key: ownerKey,
      headers: { Accept: 'text/csv' },
    });
    expect(csv.status).toBe(200);
    const [header, line] = csv.text.split('\n');
    expect(header).toBe('id,at,kind,actorKind,actorId,actorLabel,accountId,subjectId,clientAddress,details');
    expect(line).toContain('key.created');
    expect(line).toMatch(/,"\{""[^\n]*""prefix"":""rpk_\w{8}""[^\n]*\}"$/);
  });

  it('refuses a site-scoped key, an unknown field and a bad value, naming them', async () => {
    const scoped = (await issueKey(owner.id, { siteIds: [siteId] })).raw;
    expectProblem(await events(scoped), 403, '/api/v1/audit-events');
    const unknown = await events(ownerKey, '?Filter=password==x');
    expectProblem(unknown, 400, '/api/v1/audit-events');
    expect(unknown.json.errors[0].parameter).toBe('Filter');
    const badDay = await events(ownerKey, '?Filter=at>=yesterday');
    expect(badDay.status).toBe(400);
    expectProblem(await events(''), 401, '/api/v1/audit-events');
  });
});

describe('other events', () => {
  it("records an operator's viewing as a publisher once per sitting, not once per page", async () => {
    const adminPrincipal = { ...sessionPrincipal(DEMO_IDS.users.admin, 'admin'), clientAddress: ADDRESS };
    await viewAsPublisher(adminPrincipal, owner.id);
    await viewAsPublisher(adminPrincipal, owner.id);
    const viewed = await events(admin, `?Filter=kind==admin.viewed_as;subjectId==${owner.id}`);
    expect(viewed.json.data).toHaveLength(1);
    expect(viewed.json.data[0]).toMatchObject({ actorKind: 'admin', accountId: owner.id, clientAddress: ADDRESS });
  });

  it('records an ingestion run with its counts', async () => {
    const body = `day,siteId,country,impressions,clicks,adRequests,revenue\n${t.today},${siteId},DE,10,1,12,1.25\n`;
    const run = await callApi('POST', '/api/v1/admin/revenue', {
      key: admin,
      body,
      headers: { 'Content-Type': 'text/csv' },
    });
    expect(run.status).toBe(200);
    const logged = await events(admin, '?Filter=kind==revenue.ingested&pageSize=1');
    expect(logged.json.data[0]).toMatchObject({ actorKind: 'key', details: { rows: 1, inserted: 1, format: 'csv' } });
  });
});

describe('append-only', () => {
  it('refuses UPDATE and DELETE of an event, whoever asks', async () => {
    // The trigger refuses the owner; the app's own role is refused by PostgreSQL before (CI, app-role.test.ts).
    const refused = { cause: { message: expect.stringMatching(/append-only|permission denied for table/) } };
    await expect(
      t.db.execute(sql`update audit_events set kind = 'x' where account_id = ${owner.id}`),
    ).rejects.toMatchObject(refused);
    await expect(t.db.execute(sql`delete from audit_events where account_id = ${owner.id}`)).rejects.toMatchObject(
      refused,
    );
  });
});

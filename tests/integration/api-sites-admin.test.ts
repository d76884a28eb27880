import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, sites } from '@/db/schema';
import { DEMO_IDS } from '@/db/seed-data';
import { callApi } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { adminKey, issueKey } from '../support/keys';
import { expectProblem, parameters } from './api-helpers';

/** Issue 21, point 3, over HTTP: an admin adds sites for publishers and reviews them. */
const t = useTestDatabase();

let admin: string;
let publisherId: string;
let publisherKey: string;
beforeAll(async () => {
  admin = (await adminKey()).raw;
  const publisher = await createPublisher(t.db);
  publisherId = publisher.id;
  publisherKey = (await issueKey(publisher.id)).raw;
});

const NEW_SITE = { name: 'Moon Miner', url: 'https://moon-miner.test.example/play', framework: 'phaser' };
const create = (body: unknown, key = admin) => callApi('POST', '/api/v1/admin/sites', { key, body });
const patch = (id: string, body: unknown, key = admin, headers?: Record<string, string>) =>
  callApi('PATCH', `/api/v1/admin/sites/${id}`, { key, body, headers });
const eventsOf = (siteId: string) =>
  t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, siteId)).orderBy(auditEvents.id);

describe('POST /api/v1/admin/sites', () => {
  it('creates a pending site for the publisher, recorded as site.created', async () => {
    const res = await create({ publisherId, ...NEW_SITE });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ ...NEW_SITE, status: 'pending', statusReason: null, publisherId });
    const [row] = await t.db.select().from(sites).where(eq(sites.id, res.json.siteId));
    expect(row).toMatchObject({ userId: publisherId, status: 'pending' });
    const [event] = await eventsOf(res.json.siteId);
    expect(event).toMatchObject({ kind: 'site.created', accountId: publisherId, actorKind: 'key' });
    expect(event.actorLabel).toBe(`${admin.slice(0, 12)}…`); // the key's prefix, never more of it
    expect(event.details).toMatchObject({ to: 'pending', name: NEW_SITE.name });

    // The publisher's own list shows it, with the spec's SiteResponse fields.
    const listed = await callApi('GET', '/api/v1/sites', { key: publisherKey });
    expect(listed.json.map((s: { siteId: string }) => s.siteId)).toContain(res.json.siteId);
  });

  it('takes a starting status and trims the fields', async () => {
    const res = await create({
      publisherId,
      name: '  Old Game ',
      url: ' http://old.test.example ',
      framework: 'unity',
      status: 'live',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ name: 'Old Game', url: 'http://old.test.example', status: 'live' });
  });

  it('answers 400 naming every wrong field', async () => {
    const path = '/api/v1/admin/sites';
    const bad = await create({
      publisherId: 'nope',
      name: '',
      url: 'ftp://x.test',
      framework: 'x'.repeat(41),
      status: 'gone',
      extra: 1,
    });
    expectProblem(bad, 400, path);
    expect(parameters(bad).sort()).toEqual(['extra', 'framework', 'name', 'publisherId', 'status', 'url']);
    const urls = [
      'javascript:alert(1)',
      'https://user:pw@x.test/',
      'not a url',
      '//x.test',
      `https://x.test/${'a'.repeat(2048)}`,
    ];
    for (const url of urls) expect(parameters(await create({ publisherId, ...NEW_SITE, url })), url).toEqual(['url']);
    expect(parameters(await create({}))).toEqual(expect.arrayContaining(['publisherId', 'name', 'url', 'framework']));
    expect(parameters(await create({ publisherId, ...NEW_SITE, name: 'a\u0000b' }))).toEqual(['name']);
  });

  it('answers 400 naming publisherId for an unknown publisher or an operator', async () => {
    for (const id of ['6f1d2c3b-4a5e-4f60-9b7c-8d9e0f1a2b3c', DEMO_IDS.users.admin]) {
      const res = await create({ ...NEW_SITE, publisherId: id });
      expectProblem(res, 400, '/api/v1/admin/sites');
      expect(parameters(res)).toEqual(['publisherId']);
    }
  });

  it('answers 415 to a body that is not JSON', async () => {
    const res = await callApi('POST', '/api/v1/admin/sites', {
      key: admin,
      body: 'name=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expectProblem(res, 415, '/api/v1/admin/sites');
  });

  it('is closed to publishers (403) and to callers without a valid key (401), and creates nothing', async () => {
    const before = await t.db.select().from(sites).where(eq(sites.userId, publisherId));
    expectProblem(await create({ publisherId, ...NEW_SITE }, publisherKey), 403, '/api/v1/admin/sites');
    const noKey = await callApi('POST', '/api/v1/admin/sites', { body: { publisherId, ...NEW_SITE } });
    expectProblem(noKey, 401, '/api/v1/admin/sites');
    expect(await t.db.select().from(sites).where(eq(sites.userId, publisherId))).toHaveLength(before.length);
  });
});

describe('PATCH /api/v1/admin/sites/{id}', () => {
  const newSite = async () => (await createSite(t.db, publisherId, { status: 'pending' })).id;

  it('moves a site pending → approved → live → approved, each move a site.status_changed event', async () => {
    const id = await newSite();
    for (const status of ['approved', 'live', 'approved']) {
      const res = await patch(id, { status });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ siteId: id, status, statusReason: null });
    }
    const moves = (await eventsOf(id)).map((e) => [e.kind, e.details.from, e.details.to]);
    expect(moves).toEqual([
      ['site.status_changed', 'pending', 'approved'],
      ['site.status_changed', 'approved', 'live'],
      ['site.status_changed', 'live', 'approved'],
    ]);
  });

  it('sends a site back with a reason the publisher sees, cleared by the next move', async () => {
    const id = await newSite();
    await patch(id, { status: 'approved' });
    await patch(id, { status: 'live' });
    const back = await patch(id, { status: 'pending', statusReason: '  The game does not load on mobile. ' });
    expect(back.status, back.text).toBe(200);
    expect(back.json).toMatchObject({ status: 'pending', statusReason: 'The game does not load on mobile.' });
    const [event] = (await eventsOf(id)).slice(-1);
    expect(event.details).toEqual({ from: 'live', to: 'pending', reason: 'The game does not load on mobile.' });
    // Sent back again from pending: a new reason, a new event.
    const again = await patch(id, { status: 'pending', statusReason: 'Still no ads.txt.' });
    expect(again.json.statusReason).toBe('Still no ads.txt.');
    const approved = await patch(id, { status: 'approved' });
    expect(approved.json).toMatchObject({ status: 'approved', statusReason: null });
  });

  it('answers 409 for an illegal move, naming the moves open from the current status', async () => {
    const id = await newSite();
    const res = await patch(id, { status: 'live' });
    const problem = expectProblem(res, 409, `/api/v1/admin/sites/${id}`);
    expect(problem.detail).toContain('pending');
    expect(problem.detail).toContain('approved or pending');
    expect((await t.db.select().from(sites).where(eq(sites.id, id)))[0].status).toBe('pending');
    expect(await eventsOf(id)).toEqual([]);
  });

  it('changes nothing when the status is the one the site has', async () => {
    const id = (await createSite(t.db, publisherId, { status: 'live' })).id;
    const res = await patch(id, { status: 'live' });
    expect(res.status, res.text).toBe(200);
    expect(await eventsOf(id)).toEqual([]);
  });

  it('edits name, URL and framework, recorded as site.updated with what changed', async () => {
    const id = await newSite();
    const res = await patch(id, { name: 'Renamed', url: 'https://renamed.test.example', framework: 'godot' });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ name: 'Renamed', url: 'https://renamed.test.example', framework: 'godot' });
    const [event] = await eventsOf(id);
    expect(event.kind).toBe('site.updated');
    expect(Object.keys(event.details.changes as object).sort()).toEqual(['framework', 'name', 'url']);
    // The same values again: nothing changed, nothing recorded.
    await patch(id, { name: 'Renamed' });
    expect(await eventsOf(id)).toHaveLength(1);
  });

  it('answers 400 for a reason without sending back, a send-back without a reason, an empty or unknown body', async () => {
    const id = await newSite();
    const path = `/api/v1/admin/sites/${id}`;
    expect(parameters(await patch(id, { status: 'approved', statusReason: 'x' }))).toEqual(['statusReason']);
    expect(parameters(await patch(id, { statusReason: 'x' }))).toEqual(['statusReason']);
    expect(parameters(await patch(id, { status: 'pending' }))).toEqual(['statusReason']);
    expect(parameters(await patch(id, { status: 'pending', statusReason: '   ' }))).toEqual(['statusReason']);
    expectProblem(await patch(id, {}), 400, path);
    expect(parameters(await patch(id, { publisherId }))).toEqual(['publisherId']);
    expect(parameters(await patch(id, { status: 'LIVE', url: 'mailto:a@b.test' })).sort()).toEqual(['status', 'url']);
    expect(await eventsOf(id)).toEqual([]);
  });

  it('answers 404 for an unknown or malformed site id, 415 for a body that is not JSON', async () => {
    for (const id of ['6f1d2c3b-4a5e-4f60-9b7c-8d9e0f1a2b3c', 'not-a-uuid']) {
      expectProblem(await patch(id, { status: 'approved' }), 404, `/api/v1/admin/sites/${id}`);
    }
    const id = await newSite();
    const res = await patch(id, 'status=approved', admin, { 'Content-Type': 'text/plain' });
    expectProblem(res, 415, `/api/v1/admin/sites/${id}`);
  });

  it("is closed to publisher keys, the site's owner's included", async () => {
    const id = await newSite();
    expectProblem(await patch(id, { status: 'approved' }, publisherKey), 403, `/api/v1/admin/sites/${id}`);
    expectProblem(await patch(id, { name: 'Mine' }, publisherKey), 403, `/api/v1/admin/sites/${id}`);
    const [row] = await t.db
      .select()
      .from(sites)
      .where(and(eq(sites.id, id)));
    expect(row.status).toBe('pending');
  });

  it('accepts the id in upper case', async () => {
    const id = await newSite();
    const res = await patch(id.toUpperCase(), { status: 'approved' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.siteId).toBe(id);
  });

  it('keeps revenue with its site: the review changes the status, not the numbers', async () => {
    const site = await createSite(t.db, publisherId, { status: 'live' });
    await createRevenue(t.db, site.id, [{ day: t.today, country: 'DE', impressions: 5, revenueMicros: 10 }]);
    const res = await patch(site.id, { status: 'pending', statusReason: 'Policy check' });
    expect(res.status, res.text).toBe(200);
  });
});

describe('GET /api/v1/admin/sites', () => {
  it("pages every publisher's sites, pending first; FilterList[status] is the review queue", async () => {
    const publisher = await createPublisher(t.db);
    const made = await Promise.all(
      (['live', 'pending', 'approved'] as const).map((status) => createSite(t.db, publisher.id, { status })),
    );
    const all = await callApi('GET', `/api/v1/admin/sites?Filter=publisherId==${publisher.id}`, { key: admin });
    expect(all.status, all.text).toBe(200);
    expect(all.json.data.map((s: { status: string }) => s.status)).toEqual(['pending', 'approved', 'live']);
    expect(all.json.meta).toMatchObject({ totalRows: 3, page: 1 });

    const queue = await callApi('GET', '/api/v1/admin/sites?FilterList[status]=pending&pageSize=1000', { key: admin });
    expect(queue.json.data.every((s: { status: string }) => s.status === 'pending')).toBe(true);
    expect(queue.json.data.map((s: { siteId: string }) => s.siteId)).toContain(made[1].id);

    const searched = await callApi('GET', `/api/v1/admin/sites?Search=${encodeURIComponent(made[0].name!)}`, {
      key: admin,
    });
    expect(searched.json.data.map((s: { siteId: string }) => s.siteId)).toEqual([made[0].id]);

    const csv = await callApi('GET', `/api/v1/admin/sites?Filter=publisherId==${publisher.id}`, {
      key: admin,
      headers: { Accept: 'text/csv' },
    });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text.trim().split('\n')).toHaveLength(4);
  });

  it('answers 400 for unknown parameters and fields, 403 to publishers', async () => {
    const path = '/api/v1/admin/sites';
    expect(parameters(await callApi('GET', `${path}?sortBy=nosuch`, { key: admin }))).toEqual(['sortBy']);
    expect(parameters(await callApi('GET', `${path}?status=pending`, { key: admin }))).toEqual(['status']);
    expectProblem(await callApi('GET', path, { key: publisherKey }), 403, path);
  });
});

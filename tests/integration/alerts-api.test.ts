/**
 * GET /api/v1/alerts and POST /api/v1/alerts/{id}/acknowledge: the account's alerts with the reports' grammar,
 * as JSON and CSV; a site-scoped key and a Viewer limited to some sites read only their sites' alerts, money for
 * those who read statements; acknowledging happens once (then 409), and the Alerts page's service is the same.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { alerts } from '@/db/schema-alerts';
import { acknowledgeAlert, alertsQuery, listAlerts, revenueAlertsOf } from '@/lib/alerts';
import { DEMO_IDS } from '@/db/seed-data';
import { readView } from '@/lib/dashboard/url';
import { callApi, get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey, memberPrincipal, sessionPrincipal } from '../support/keys';
import { expectProblem } from './api-helpers';

const t = useTestDatabase();
let owner: { id: string };
let siteA: string;
let siteB: string;
let ownerKey: string;
let scopedKey: string;
const ids: Record<string, string> = {};

async function alert(name: string, values: Partial<typeof alerts.$inferInsert>) {
  const [row] = await t.db
    .insert(alerts)
    .values({ accountId: owner.id, kind: 'data.missing', dedupeKey: randomUUID(), message: name, ...values })
    .returning({ id: alerts.id });
  ids[name] = row.id;
}

beforeAll(async () => {
  owner = await createPublisher(t.db);
  siteA = (await createSite(t.db, owner.id, { name: 'Alpha' })).id;
  siteB = (await createSite(t.db, owner.id, { name: 'Beta' })).id;
  ownerKey = (await issueKey(owner.id)).raw;
  scopedKey = (await issueKey(owner.id, { siteIds: [siteA] })).raw;
  await alert('drop A', {
    kind: 'revenue.drop',
    siteId: siteA,
    day: '2026-11-24',
    details: { expected: 100, actual: 40 },
  });
  await alert('missing B', { kind: 'data.missing', siteId: siteB, day: '2026-11-20' });
  await alert('account drop', { kind: 'revenue.drop', day: '2026-11-24' });
  await alert('statement', { kind: 'statement.finalized' });
  await alert('key', { kind: 'key.expiring', day: '2026-12-01' });
});

/** The first page of every alert a principal reads, as the Alerts page asks for it. */
function everything() {
  const input = readView(alertsQuery, { pageSize: '50' });
  if (input instanceof Error) throw input;
  return input;
}
const list = (key: string, query = '') => get(`/api/v1/alerts${query}`, { key });
const messages = (res: { json: { data: { message: string }[] } }) => res.json.data.map((a) => a.message).sort();

describe('GET /api/v1/alerts', () => {
  it('answers the account’s alerts, newest first, with the grammar’s paging, Filter and FilterList', async () => {
    const all = await list(ownerKey);
    expect(all.status).toBe(200);
    expect(all.json.meta).toMatchObject({ totalRows: 5, sortBy: 'createdAt', sortDirection: 'desc' });
    expect(all.json.data[0]).toMatchObject({ message: 'key', kind: 'key.expiring', state: 'open', day: '2026-12-01' });
    const drops = await list(ownerKey, '?FilterList[kind]=revenue.drop,key.expiring&sortBy=day&pageSize=2');
    expect(drops.json.meta).toMatchObject({ totalRows: 3, totalPages: 2 });
    expect(drops.json.data.map((a: { day: string }) => a.day)).toEqual(['2026-11-24', '2026-11-24']);
    const onDay = await list(ownerKey, `?Filter=day==2026-11-24;siteId==${siteA}`);
    expect(messages(onDay)).toEqual(['drop A']);
    expect(onDay.json.data[0].details).toEqual({ expected: 100, actual: 40 });
    expectProblem(await list(ownerKey, '?Filter=nosuch==1'), 400, '/api/v1/alerts');
    expectProblem(await list(ownerKey, '?sortBy=message'), 400, '/api/v1/alerts');
  });

  it('answers CSV with every field, details as JSON text', async () => {
    const csv = await get(`/api/v1/alerts?Filter=siteId==${siteA}`, {
      key: ownerKey,
      headers: { Accept: 'text/csv' },
    });
    expect(csv.status).toBe(200);
    const [header] = csv.text.split('\n');
    expect(header.trim()).toBe('id,kind,state,day,siteId,subjectId,createdAt,acknowledgedAt,message,details');
    expect(csv.text).toContain('drop A');
  });

  it('gives a site-scoped key only its sites’ alerts, and refuses it the others', async () => {
    expect(messages(await list(scopedKey))).toEqual(['drop A']);
    const path = `/api/v1/alerts/${ids['missing B']}/acknowledge`;
    expectProblem(await callApi('POST', path, { key: scopedKey }), 404, path);
  });

  it('gives a Viewer limited to a site its alerts, and no money or key alerts to a member who reads neither', async () => {
    const viewer = memberPrincipal(owner.id, randomUUID(), 'viewer', [siteB]);
    expect((await listAlerts(viewer, everything())).data.map((a) => a.message)).toEqual(['missing B']);
    const admin = memberPrincipal(owner.id, randomUUID(), 'admin');
    const kinds = (await listAlerts(admin, everything())).data.map((a) => a.kind);
    expect(kinds).not.toContain('statement.finalized');
    expect(kinds).toContain('key.expiring');
    const finance = memberPrincipal(owner.id, randomUUID(), 'finance');
    const theirs = (await listAlerts(finance, everything())).data.map((a) => a.kind);
    expect(theirs).toContain('statement.finalized');
    expect(theirs).not.toContain('key.expiring');
  });
});

describe('POST /api/v1/alerts/{id}/acknowledge', () => {
  it('acknowledges an open alert once; again is a 409 saying since when; another account’s is a 404', async () => {
    const path = `/api/v1/alerts/${ids['account drop']}/acknowledge`;
    const done = await callApi('POST', path, { key: ownerKey });
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ state: 'acknowledged', acknowledgedAt: expect.any(String) });
    const again = await callApi('POST', path, { key: ownerKey });
    expectProblem(again, 409, path);
    expect(again.json.detail).toContain(done.json.acknowledgedAt);
    const stranger = (await issueKey((await createPublisher(t.db)).id)).raw;
    expectProblem(
      await callApi('POST', '/api/v1/alerts/not-a-uuid/acknowledge', { key: ownerKey }),
      404,
      '/api/v1/alerts/not-a-uuid/acknowledge',
    );
    const theirs = `/api/v1/alerts/${ids['drop A']}/acknowledge`;
    expectProblem(await callApi('POST', theirs, { key: stranger }), 404, theirs);
    const open = await list(ownerKey, '?Filter=state==open');
    expect(messages(open)).toEqual(['drop A', 'key', 'missing B', 'statement']);
  });

  it('is refused to an operator viewing the publisher', async () => {
    const viewing = { ...memberPrincipal(owner.id, randomUUID(), 'owner'), viewedBy: randomUUID() };
    await expect(acknowledgeAlert(viewing, ids['drop A'])).rejects.toThrow(/read-only view/);
  });
});

describe('the overview chart’s markers', () => {
  const november = { fromDate: '2026-11-01', toDate: '2026-11-30' };

  it('are the account’s own revenue alerts for the whole account, the chosen sites’ for some', async () => {
    const principal = sessionPrincipal(owner.id);
    const whole = await revenueAlertsOf(principal, { ...november, siteIds: null });
    expect(whole.map((a) => a.message)).toEqual(['account drop']);
    const some = await revenueAlertsOf(principal, { ...november, siteIds: [siteA, siteB] });
    expect(some.map((a) => [a.day, a.kind, a.message])).toEqual([['2026-11-24', 'revenue.drop', 'drop A']]);
    expect(await revenueAlertsOf(principal, { fromDate: '2026-10-01', toDate: '2026-10-31', siteIds: null })).toEqual(
      [],
    );
  });

  it('are none on the operator’s own overview', async () => {
    const operator = sessionPrincipal(DEMO_IDS.users.admin, 'admin');
    expect(await revenueAlertsOf(operator, { ...november, siteIds: null })).toEqual([]);
  });
});

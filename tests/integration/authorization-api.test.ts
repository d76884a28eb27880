import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, users } from '@/db/schema';
import { alerts, webhookEndpoints } from '@/db/schema-alerts';
import { ENDPOINTS } from '@/lib/api/endpoints';
import { generateApiKey } from '@/lib/keys/key-format';
import { revokeApiKey } from '@/lib/keys/api-keys';
import { type ApiResult, callApi } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { adminKey, issueKey, sessionPrincipal } from '../support/keys';
import { expectProblem } from './api-helpers';

/**
 * Issue 9, point 8, for the API: every operation of the endpoint table × every kind of caller, with the
 * answer each must get. The owner's data belongs to a publisher made for this file; "other" is another
 * publisher's account-level key, "admin" the demo admin's. A 2xx cell also checks that what came back is
 * the caller's own. The dashboard's matrix is e2e/dashboard-authorization.spec.ts. An admin key acts as the
 * operator's account and holds every platform power; the people of that account, whose powers follow their role,
 * are tried at the services in authorization-operators.test.ts.
 */
const t = useTestDatabase();

const CALLERS = [
  'none',
  'unknown',
  'revoked',
  'expired',
  'deactivated',
  'siteScoped',
  'account',
  'other',
  'admin',
] as const;
type Caller = (typeof CALLERS)[number];

interface World {
  ownerId: string;
  ownerEmail: string;
  siteA: string;
  siteB: string;
  otherSite: string;
  keys: Record<Caller, string | null>;
  alerts: { siteA: string; siteB: string; account: string };
  webhookId: string;
}
let w: World;

beforeAll(async () => {
  const owner = await createPublisher(t.db);
  const other = await createPublisher(t.db);
  const [siteA, siteB, otherSite] = await Promise.all([
    createSite(t.db, owner.id),
    createSite(t.db, owner.id),
    createSite(t.db, other.id),
  ]);
  await createRevenue(t.db, siteA.id, [
    { day: t.today, country: 'DE', impressions: 1000, adRequests: 1200, revenueMicros: 2_500_000 },
  ]);
  const revoked = await issueKey(owner.id);
  await revokeApiKey(sessionPrincipal(owner.id), revoked.record.id);
  const expired = await issueKey(owner.id);
  await t.db
    .update(apiKeys)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(apiKeys.id, expired.record.id));
  // A deactivated publisher's key, left unrevoked: deactivation revokes keys, but the account's status alone
  // must already shut them out (lib/keys/authenticate.ts).
  const shutOut = await createPublisher(t.db);
  const shutOutKey = await issueKey(shutOut.id);
  await t.db.update(users).set({ status: 'deactivated' }).where(eq(users.id, shutOut.id));
  const alertOf = (siteId: string | null) => alertAbout(siteId, owner.id);
  w = {
    alerts: { siteA: await alertOf(siteA.id), siteB: await alertOf(siteB.id), account: await alertOf(null) },
    webhookId: await webhookOf(owner.id),
    ownerId: owner.id,
    ownerEmail: owner.email,
    siteA: siteA.id,
    siteB: siteB.id,
    otherSite: otherSite.id,
    keys: {
      none: null,
      unknown: generateApiKey().raw,
      revoked: revoked.raw,
      expired: expired.raw,
      deactivated: shutOutKey.raw,
      siteScoped: (await issueKey(owner.id, { siteIds: [siteA.id] })).raw,
      account: (await issueKey(owner.id)).raw,
      other: (await issueKey(other.id)).raw,
      admin: (await adminKey()).raw,
    },
  };
});

/** A new open alert of the owner's account, about a site or the whole account. */
async function alertAbout(siteId: string | null, accountId = w.ownerId) {
  const [row] = await t.db
    .insert(alerts)
    .values({ accountId, siteId, kind: 'data.missing', dedupeKey: randomUUID(), message: 'No data.' })
    .returning({ id: alerts.id });
  return row.id;
}

/** A webhook of the account, at a host that never resolves (.invalid): a test event sent to it fails at once. */
async function webhookOf(accountId: string) {
  const [row] = await t.db
    .insert(webhookEndpoints)
    .values({ accountId, url: 'https://hooks.invalid/', events: ['data.updated'], secret: `whsec_${'A'.repeat(32)}` })
    .returning({ id: webhookEndpoints.id });
  return row.id;
}

type Cells = Record<Caller, number>;
/** The five callers without a usable key get 401 from every keyed operation. */
const keyed = (usable: Omit<Cells, 'none' | 'unknown' | 'revoked' | 'expired' | 'deactivated'>): Cells => ({
  none: 401,
  unknown: 401,
  revoked: 401,
  expired: 401,
  deactivated: 401,
  ...usable,
});
const OPERATOR_ONLY = keyed({ siteScoped: 403, account: 403, other: 403, admin: 200 });
const everyone = (status: number): Cells => Object.fromEntries(CALLERS.map((c) => [c, status])) as unknown as Cells;

interface Operation {
  /** The endpoint table's operationId. */
  operationId: string;
  request(): Promise<{ method: string; path: string; body?: unknown; headers?: Record<string, string> }>;
  expected: Cells;
  /** For a 2xx: what came back is the caller's own. */
  check?(res: ApiResult, caller: Caller): void | Promise<void>;
}

const siteIdsOf = (res: ApiResult) => (res.json as { siteId: string }[]).map((s) => s.siteId).sort();
const ownSites = (caller: Caller): string[] | null =>
  caller === 'siteScoped' ? [w.siteA] : caller === 'account' ? [w.siteA, w.siteB].sort() : null;

const OPERATIONS: Operation[] = [
  {
    operationId: 'getHealth',
    request: async () => ({ method: 'GET', path: '/api/v1/health' }),
    expected: everyone(200),
  },
  {
    operationId: 'getOpenApiDocument',
    request: async () => ({ method: 'GET', path: '/api/v1/openapi.json' }),
    expected: everyone(200),
  },
  {
    operationId: 'listSites',
    request: async () => ({ method: 'GET', path: '/api/v1/sites' }),
    expected: keyed({ siteScoped: 200, account: 200, other: 200, admin: 200 }),
    check(res, caller) {
      if (caller === 'other') expect(siteIdsOf(res)).toEqual([w.otherSite]);
      else if (caller === 'admin') expect(siteIdsOf(res)).not.toContain(w.siteA);
      else expect(siteIdsOf(res)).toEqual(ownSites(caller));
    },
  },
  ...['getTotals', 'getRevenueByCountry'].map((operationId): Operation => ({
    operationId,
    request: async () => ({
      method: 'GET',
      path: `${operationId === 'getTotals' ? '/api/v1/reports/totals' : '/api/v1/reports/by-country'}?siteIds=${w.siteA}`,
    }),
    expected: keyed({ siteScoped: 200, account: 200, other: 403, admin: 403 }),
  })),
  ...[
    ['getCountryRows', '/api/v1/reports/countries'],
    ['exportCountryRows', '/api/v1/reports/countries/export'],
  ].map(([operationId, path]): Operation => ({
    operationId,
    // A filter on a site, not a scope: another account's site matches none of the caller's rows.
    request: async () => ({ method: 'GET', path: `${path}?Filter=gameId==${w.siteA}` }),
    // The rows is account-wide: closed to site-scoped keys.
    expected: keyed({ siteScoped: 403, account: 200, other: 200, admin: 200 }),
    check(res, caller) {
      const rows = operationId === 'getCountryRows' ? res.json.data.length : res.text.trim().split('\n').length - 1;
      if (caller === 'account') expect(rows).toBeGreaterThan(0);
      else expect(rows).toBe(0);
    },
  })),
  {
    operationId: 'getLegacyCountryRows',
    request: async () => ({ method: 'GET', path: '/api/v1/revenues/countries?pageSize=1' }),
    expected: keyed({ siteScoped: 403, account: 200, other: 200, admin: 200 }),
  },
  {
    operationId: 'listApiKeys',
    request: async () => ({ method: 'GET', path: '/api/v1/api-keys' }),
    expected: keyed({ siteScoped: 403, account: 200, other: 200, admin: 200 }),
    async check(res, caller) {
      const ownerKeys = await t.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, w.ownerId));
      const owned = new Set(ownerKeys.map((k) => k.id));
      const listed = (res.json as { id: string }[]).map((k) => k.id);
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.every((id) => owned.has(id))).toBe(caller === 'account');
      if (caller !== 'account') expect(listed.some((id) => owned.has(id))).toBe(false);
    },
  },
  {
    operationId: 'listAuditEvents',
    request: async () => ({ method: 'GET', path: '/api/v1/audit-events?pageSize=1000' }),
    // The log is account-wide, like the rows: closed to site-scoped keys; an admin's reads every account's.
    expected: keyed({ siteScoped: 403, account: 200, other: 200, admin: 200 }),
    check(res, caller) {
      const accounts = new Set((res.json.data as { accountId: string | null }[]).map((e) => e.accountId));
      if (caller === 'account') expect([...accounts]).toEqual([w.ownerId]);
      else if (caller === 'other') expect(accounts.has(w.ownerId)).toBe(false);
      else expect(accounts.has(w.ownerId)).toBe(true);
    },
  },
  {
    operationId: 'listAlerts',
    request: async () => ({ method: 'GET', path: '/api/v1/alerts?pageSize=1000' }),
    // The account's alerts; a site-scoped key only those about its sites (not the account's own, nor site B's).
    expected: keyed({ siteScoped: 200, account: 200, other: 200, admin: 403 }),
    check(res, caller) {
      const ids = (res.json.data as { id: string }[]).map((a) => a.id).sort();
      const { siteA, siteB, account } = w.alerts;
      if (caller === 'siteScoped') expect(ids).toEqual([siteA]);
      else if (caller === 'account') expect(ids).toEqual([siteA, siteB, account].sort());
      else expect(ids).toEqual([]);
    },
  },
  {
    operationId: 'acknowledgeAlert',
    // An open alert about site B, new for each cell: the site-scoped key (site A) may not read it.
    request: async () => ({ method: 'POST', path: `/api/v1/alerts/${await alertAbout(w.siteB)}/acknowledge` }),
    expected: keyed({ siteScoped: 404, account: 200, other: 404, admin: 403 }),
    check: (res) => expect(res.json).toMatchObject({ state: 'acknowledged', siteId: w.siteB }),
  },
  {
    operationId: 'createWebhook',
    request: async () => ({
      method: 'POST',
      path: '/api/v1/webhooks',
      // A public address by its literal: no resolver is needed (this machine has none for the internet).
      body: { url: 'https://93.184.215.14/portal', events: ['revenue.drop'] },
    }),
    expected: keyed({ siteScoped: 403, account: 200, other: 200, admin: 403 }),
    check: (res) => expect(res.json.secret).toMatch(/^whsec_/),
  },
  {
    operationId: 'listWebhooks',
    request: async () => ({ method: 'GET', path: '/api/v1/webhooks' }),
    expected: keyed({ siteScoped: 403, account: 200, other: 200, admin: 403 }),
    check(res, caller) {
      const ids = (res.json.data as { id: string }[]).map((h) => h.id);
      expect(ids.includes(w.webhookId)).toBe(caller === 'account');
    },
  },
  ...(
    [
      ['deleteWebhook', 'DELETE', ''],
      ['testWebhook', 'POST', '/test'],
      ['listWebhookDeliveries', 'GET', '/deliveries'],
    ] as const
  ).map(([operationId, method, tail]): Operation => ({
    operationId,
    // A webhook of the owner's, new for each cell.
    request: async () => ({ method, path: `/api/v1/webhooks/${await webhookOf(w.ownerId)}${tail}` }),
    expected: keyed({ siteScoped: 403, account: 200, other: 404, admin: 403 }),
  })),
  ...['getBalance', 'listStatements'].map((operationId): Operation => ({
    operationId,
    request: async () => ({
      method: 'GET',
      path: operationId === 'getBalance' ? '/api/v1/payments/balance' : '/api/v1/payments/statements',
    }),
    // Statements are the whole account's, like the rows; an admin reads them by viewing the account.
    expected: keyed({ siteScoped: 403, account: 200, other: 200, admin: 403 }),
    check(res, caller) {
      // The owner earned this month (an estimate); the other publisher nothing.
      if (operationId === 'getBalance') expect(res.json.estimated > 0).toBe(caller === 'account');
      else expect(res.json.data.length > 0).toBe(caller === 'account');
    },
  })),
  {
    operationId: 'getStatement',
    request: async () => ({ method: 'GET', path: `/api/v1/payments/statements/${t.today.slice(0, 7)}` }),
    expected: keyed({ siteScoped: 403, account: 200, other: 404, admin: 403 }),
    check(res) {
      expect(res.json.accountId).toBe(w.ownerId);
    },
  },
  {
    operationId: 'createApiKey',
    request: async () => ({ method: 'POST', path: '/api/v1/api-keys', body: { label: 'matrix' } }),
    expected: keyed({ siteScoped: 403, account: 200, other: 200, admin: 200 }),
  },
  {
    operationId: 'revokeApiKey',
    // A key of the owner's, new for each cell.
    request: async () => ({ method: 'DELETE', path: `/api/v1/api-keys/${(await issueKey(w.ownerId)).record.id}` }),
    expected: keyed({ siteScoped: 403, account: 200, other: 404, admin: 404 }),
  },
  {
    operationId: 'createApiKeyForUser',
    request: async () => ({ method: 'POST', path: `/api/v1/api-keys/for-user/${w.ownerId}`, body: { label: 'm' } }),
    expected: keyed({ siteScoped: 403, account: 403, other: 403, admin: 200 }),
  },
  {
    operationId: 'listPublishers',
    request: async () => ({ method: 'GET', path: '/api/v1/admin/publishers?pageSize=1' }),
    expected: OPERATOR_ONLY,
  },
  {
    operationId: 'createPublisher',
    request: async () => ({
      method: 'POST',
      path: '/api/v1/admin/publishers',
      body: { email: `matrix-${randomUUID()}@test.example`, name: 'Matrix' },
    }),
    expected: OPERATOR_ONLY,
  },
  // Each cell acts on an account of its own, in the state the operation applies to.
  {
    operationId: 'deactivatePublisher',
    request: async () => ({
      method: 'POST',
      path: `/api/v1/admin/publishers/${(await createPublisher(t.db)).id}/deactivate`,
    }),
    expected: OPERATOR_ONLY,
  },
  {
    operationId: 'reactivatePublisher',
    request: async () => ({
      method: 'POST',
      path: `/api/v1/admin/publishers/${(await createPublisher(t.db, { status: 'deactivated' })).id}/reactivate`,
    }),
    expected: OPERATOR_ONLY,
  },
  {
    operationId: 'resendInvitation',
    request: async () => ({
      method: 'POST',
      path: `/api/v1/admin/publishers/${(await createPublisher(t.db, { status: 'invited' })).id}/invitation`,
    }),
    expected: OPERATOR_ONLY,
  },
  {
    operationId: 'ingestRevenue',
    request: async () => ({
      method: 'POST',
      path: '/api/v1/admin/revenue',
      headers: { 'Content-Type': 'text/csv' },
      body: `day,siteId,country,impressions,clicks,adRequests,revenue\n2026-01-01,${w.siteB},DE,10,1,20,0.05\n`,
    }),
    expected: keyed({ siteScoped: 403, account: 403, other: 403, admin: 200 }),
  },
  {
    operationId: 'listAllSites',
    request: async () => ({ method: 'GET', path: `/api/v1/admin/sites?Filter=publisherId==${w.ownerId}` }),
    expected: keyed({ siteScoped: 403, account: 403, other: 403, admin: 200 }),
    check: (res) => expect(res.json.data.map((s: { siteId: string }) => s.siteId)).toContain(w.siteA),
  },
  {
    operationId: 'createSite',
    request: async () => ({
      method: 'POST',
      path: '/api/v1/admin/sites',
      body: { publisherId: w.ownerId, name: 'matrix', url: 'https://matrix.test.example', framework: 'phaser' },
    }),
    // Not even the owner: a publisher adds its own sites on the dashboard, where they wait for review.
    expected: keyed({ siteScoped: 403, account: 403, other: 403, admin: 200 }),
    check: (res) => expect(res.json).toMatchObject({ publisherId: w.ownerId, status: 'pending' }),
  },
  {
    operationId: 'updateSite',
    // A pending site of the owner's, new for each cell.
    request: async () => ({
      method: 'PATCH',
      path: `/api/v1/admin/sites/${(await createSite(t.db, w.ownerId, { status: 'pending' })).id}`,
      body: { status: 'approved' },
    }),
    expected: keyed({ siteScoped: 403, account: 403, other: 403, admin: 200 }),
    check: (res) => expect(res.json).toMatchObject({ publisherId: w.ownerId, status: 'approved' }),
  },
];

describe('authorization matrix: every API operation × every kind of caller', () => {
  it('covers every operation of the endpoint table', () => {
    expect(OPERATIONS.map((o) => o.operationId).sort()).toEqual(ENDPOINTS.map((e) => e.operationId).sort());
  });

  it.each(OPERATIONS.map((o) => [o.operationId, o] as const))('%s', async (_, operation) => {
    const answers: Partial<Cells> = {};
    for (const caller of CALLERS) {
      const { method, path, body, headers } = await operation.request();
      const key = w.keys[caller];
      const res = await callApi(method, path, { key: key ?? undefined, body, headers });
      answers[caller] = res.status;
      if (res.status >= 400) expectProblem(res, res.status, path.split('?')[0]);
      else await operation.check?.(res, caller);
    }
    expect(answers).toEqual(operation.expected);
  });
});

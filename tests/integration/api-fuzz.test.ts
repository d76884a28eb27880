import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { apiKeys } from '@/db/schema';
import { alerts, webhookEndpoints } from '@/db/schema-alerts';
import { ENDPOINTS } from '@/lib/api/endpoints';
import { openApiDocument } from '@/lib/api/endpoints';
import { generateApiKey } from '@/lib/keys/key-format';
import { readEnv, setEnv } from '@/lib/platform/env';
import { fetchInProcess } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import {
  answerProblems,
  documentedStatuses,
  type FuzzCaller,
  type FuzzRequest,
  operationRequests,
} from '../support/fuzz';
import { adminKey, issueKey } from '../support/keys';
import { secretsIn } from '../support/secrets';

/**
 * Issue 9, point 7, in process: fast-check sends hostile requests to every operation (and other methods on
 * its path) as every kind of caller; each answer must be 2xx or a documented error as problem+json with
 * rate-limit headers, and show no row of a site outside the caller's scope; a HEAD answers as the same
 * request's GET, sent after it, does, without a body. FUZZ_RUNS cases per operation (300 by default);
 * `npm run fuzz` sends 10,000 to a production server. The callers' data is made here, so the demo data is
 * never touched.
 */
const t = useTestDatabase();
const RUNS = Number(process.env.FUZZ_RUNS || 300);
const document = openApiDocument() as unknown as Parameters<typeof documentedStatuses>[0] &
  Parameters<typeof operationRequests>[0];
const documented = documentedStatuses(document);

let callers: FuzzCaller[];
let ids: string[];
let accountIds: string[];

beforeAll(async () => {
  // Limits high enough that the cases exercise the endpoints rather than the 429 (tested on their own).
  setEnv(readEnv({ ...process.env, RATE_LIMIT_PER_MINUTE: '1000000', ADDRESS_RATE_LIMIT_PER_MINUTE: '1000000' }));
  const owner = await createPublisher(t.db);
  const other = await createPublisher(t.db);
  const [siteA, siteB, siteC] = await Promise.all([
    createSite(t.db, owner.id),
    createSite(t.db, owner.id),
    createSite(t.db, other.id),
  ]);
  for (const site of [siteA, siteB, siteC]) {
    await createRevenue(t.db, site.id, [
      { day: t.today, country: 'DE', impressions: 1000, adRequests: 1500, revenueMicros: 2_500_000 },
      { day: t.today, country: 'US', impressions: 10, adRequests: 20, revenueMicros: 70_000 },
    ]);
  }
  const account = await issueKey(owner.id);
  const scoped = await issueKey(owner.id, { siteIds: [siteA.id] });
  const revoked = await issueKey(owner.id);
  await t.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, revoked.record.id));
  callers = [
    { name: 'account key', key: account.raw, sites: [siteA.id, siteB.id] },
    { name: 'site-scoped key', key: scoped.raw, sites: [siteA.id] },
    { name: 'other account', key: (await issueKey(other.id)).raw, sites: [siteC.id] },
    { name: 'admin', key: (await adminKey()).raw, sites: [] },
    { name: 'revoked key', key: revoked.raw, sites: [] },
    { name: 'unknown key', key: generateApiKey().raw, sites: [] },
    { name: 'no key', key: null, sites: [] },
  ];
  // Keys the cases may revoke: not the callers' own, which would turn every later case into a 401.
  const spare = await Promise.all([1, 2, 3].map(() => issueKey(owner.id)));
  const throwaway = await Promise.all(
    (['active', 'invited', 'deactivated'] as const).map((status) => createPublisher(t.db, { status })),
  );
  accountIds = throwaway.map((u) => u.id);
  // An alert and a webhook of the owner's, so that their operations reach their services with a known id too.
  const [alert] = await t.db
    .insert(alerts)
    .values({ accountId: owner.id, kind: 'data.missing', dedupeKey: 'fuzz', message: 'No data.', siteId: siteA.id })
    .returning({ id: alerts.id });
  const [webhook] = await t.db
    .insert(webhookEndpoints)
    .values({
      accountId: owner.id,
      url: 'https://hooks.invalid/',
      events: ['data.updated'],
      secret: `whsec_${'A'.repeat(32)}`,
    })
    .returning({ id: webhookEndpoints.id });
  ids = [
    siteA.id,
    siteB.id,
    siteC.id,
    owner.id,
    other.id,
    revoked.record.id,
    ...spare.map((k) => k.record.id),
    alert.id,
    webhook.id,
  ];
});

let printed: MockInstance[] = [];
beforeAll(() => {
  printed = (['log', 'info', 'warn', 'error'] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
});

afterAll(() => {
  setEnv(undefined);
  // Whatever the cases made the server log, no key or hash of theirs is in it (issue 9, point 4).
  const output = printed.flatMap((spy) => spy.mock.calls.map((args) => args.map(String).join(' '))).join('\n');
  for (const spy of printed) spy.mockRestore();
  expect(
    secretsIn(
      output,
      callers.flatMap((c) => (c.key ? [c.key] : [])),
    ),
  ).toEqual([]);
});

async function send(request: FuzzRequest) {
  const response = await fetchInProcess(
    new Request(new URL(request.path, 'http://localhost'), {
      method: request.method,
      headers: request.headers,
      body: request.body,
    }),
  );
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('hostile requests to every operation', () => {
  it.each(ENDPOINTS.map((e) => [e.operationId]))(
    '%s: 2xx or a documented problem, and nothing outside the caller’s scope',
    async (operationId) => {
      await fc.assert(
        fc.asyncProperty(operationRequests(document, operationId, { callers, ids, accountIds }), async (request) => {
          // fetchInProcess also checks the answer against the OpenAPI document, schema included.
          const answer = await send(request);
          const problems = await answerProblems(request, answer, documented, send);
          expect(problems, `${request.method} ${request.path}`).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    },
    300_000,
  );
});

/**
 * GET /api/cron/hourly, what Vercel Cron calls (vercel.json): off without CRON_SECRET, refused without the exact
 * Bearer secret (spending the address's budget), and with it the hourly scan and housekeeping run once per hour,
 * whoever asks.
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GET } from '@/app/api/cron/hourly/route';
import { jobs, webhookDeliveries, webhookEndpoints } from '@/db/schema-alerts';
import { readEnv, setEnv } from '@/lib/platform/env';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { setRateLimitStore } from '@/lib/ratelimit';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';
import { sqlRows } from './reports-helpers';

const t = useTestDatabase();
const SECRET = 'a-cron-secret-of-32-characters!!';
const cron = async (authorization?: string) => {
  const response = await GET(
    new Request('http://localhost/api/cron/hourly', { headers: authorization ? { authorization } : {} }),
    { params: Promise.resolve({}) },
  );
  return { status: response.status, headers: response.headers, json: await response.json() };
};

beforeEach(() => {
  setEnv(readEnv({ ...process.env, CRON_SECRET: SECRET }));
  setRateLimitStore(createMemoryStore());
});
afterEach(() => {
  setEnv(undefined);
  setRateLimitStore(undefined);
});

describe('the scheduler’s route', () => {
  it('is off (404) without CRON_SECRET', async () => {
    setEnv(readEnv({ ...process.env, CRON_SECRET: undefined }));
    const off = await cron(`Bearer ${SECRET}`);
    expect(off.status).toBe(404);
    expect(off.json.detail).toMatch(/set CRON_SECRET/);
  });

  it('refuses a missing or wrong secret with 401, spending the address’s budget', async () => {
    for (const given of [undefined, `Bearer ${SECRET.slice(0, -1)}`, SECRET, `Bearer ${SECRET}x`]) {
      const refused = await cron(given);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    expect(Number((await cron()).headers.get('x-ratelimit-remaining'))).toBeLessThan(30 - 4);
  });

  it('runs this hour’s scan once, however often it is called', async () => {
    const first = await cron(`Bearer ${SECRET}`);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ done: expect.any(Number), failed: 0 });
    expect((await cron(`Bearer ${SECRET}`)).json).toMatchObject({ done: 0 });
    const scans = await sqlRows<{ n: string }>(
      t.db,
      sql`select count(*)::text as n from jobs where kind = 'alerts.scan' and done_at is not null`,
    );
    expect(scans[0].n).toBe('1');
  });

  it('removes, hourly, jobs and webhook deliveries finished more than 30 days ago, and keeps the rest', async () => {
    const owner = await createPublisher(t.db);
    const [hook] = await t.db
      .insert(webhookEndpoints)
      .values({ accountId: owner.id, url: 'https://hooks.invalid/', events: ['data.updated'], secret: 'whsec_x' })
      .returning();
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
    await t.db.insert(webhookDeliveries).values([
      { endpointId: hook.id, eventType: 'old', payload: {}, deliveredAt: daysAgo(31) },
      { endpointId: hook.id, eventType: 'old', payload: {}, failedAt: daysAgo(40) },
      { endpointId: hook.id, eventType: 'recent', payload: {}, deliveredAt: daysAgo(29) },
    ]);
    await t.db.insert(jobs).values([
      { kind: 'alerts.scan', dedupeKey: 'old done', doneAt: daysAgo(31) },
      { kind: 'alerts.scan', dedupeKey: 'recent done', doneAt: daysAgo(1) },
    ]);
    await t.db.execute(sql`delete from jobs where kind = 'housekeeping'`);
    expect((await cron(`Bearer ${SECRET}`)).status).toBe(200);
    const left = await sqlRows<{ event_type: string }>(
      t.db,
      sql`select event_type from webhook_deliveries where endpoint_id = ${hook.id}`,
    );
    expect(left.map((d) => d.event_type)).toEqual(['recent']);
    const keys = await sqlRows<{ dedupe_key: string }>(
      t.db,
      sql`select dedupe_key from jobs where dedupe_key in ('old done', 'recent done')`,
    );
    expect(keys.map((j) => j.dedupe_key)).toEqual(['recent done']);
  });
});

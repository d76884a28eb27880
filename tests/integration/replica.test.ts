/**
 * Issue 24, point 5: with a read replica (DATABASE_REPLICA_URL), reports, rows, exports and the dashboard's
 * figures are read from it; key checks and writes stay on the primary. Against a real streaming replica of the
 * test server, made by `.ci/replica` with pg_basebackup: its lag is real (replay paused), and so is its going
 * away (a TCP proxy in front of it that stops answering).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, openReplica, setReadDatabase, type Database } from '@/db/client';
import { getDataSpan } from '@/lib/reports';
import { get } from '../support/api';
import { asOwnerUrl, useTestDatabase } from '../support/db';
import { createPublisher, createRevenue, createSite } from '../support/factories';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { issueKey, sessionPrincipal } from '../support/keys';
import { sqlRows } from './reports-helpers';

const REPLICA_URL = process.env.TEST_REPLICA_URL;
const PRIMARY_URL = process.env.TEST_DATABASE_URL;
const t = useTestDatabase();

describe.skipIf(!REPLICA_URL || !PRIMARY_URL)('reads from a streaming replica', () => {
  let proxy: FaultProxy;
  let reads: Database;
  /** Straight to the replica, for its replay controls. */
  let replica: Database;
  let owner: string;
  let site: string;
  let key: string;
  const TOTALS = '/api/v1/reports/totals?fromDate=2026-01-01&toDate=2026-01-31';
  const revenueOf = async (k = key) => {
    const res = await get(TOTALS, { key: k });
    expect(res.status).toBe(200);
    return { revenue: res.json.totalRevenue as number, etag: res.headers.get('etag')! };
  };

  /** Waits until the replica has replayed everything the primary has written so far. */
  async function caughtUp() {
    const [{ lsn }] = await sqlRows<{ lsn: string }>(t.db, sql`select pg_current_wal_lsn()::text as lsn`);
    for (let i = 0; i < 200; i++) {
      const [{ done }] = await sqlRows<{ done: boolean }>(
        replica.db,
        sql`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as done`,
      );
      if (done) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the replica did not replay up to ${lsn} within 10 s`);
  }

  beforeAll(async () => {
    const { hostname, port } = new URL(REPLICA_URL!);
    proxy = await startFaultProxy({ host: hostname, port: Number(port) });
    // Pausing and resuming replay is a superuser's, never the app role's.
    replica = await openPostgres(asOwnerUrl(REPLICA_URL!), { max: 1 });
    reads = await openReplica(proxy.urlFor(REPLICA_URL!), PRIMARY_URL!);
    setReadDatabase(reads);
    owner = (await createPublisher(t.db)).id;
    site = (await createSite(t.db, owner)).id;
    key = (await issueKey(owner)).raw;
    await createRevenue(t.db, site, [{ day: '2026-01-05', country: 'US', revenueMicros: 1_000_000 }]);
    await caughtUp();
  });

  afterAll(async () => {
    await replica?.db.execute(sql`select pg_wal_replay_resume()`);
    setReadDatabase(undefined);
    await reads?.close();
    await replica?.close();
    await proxy?.close();
  });

  it('reads reports there: while its replay is paused, what the primary wrote since is not in them', async () => {
    const before = await revenueOf();
    expect(before.revenue).toBe(1);
    const spanBefore = await getDataSpan(sessionPrincipal(owner));
    await replica.db.execute(sql`select pg_wal_replay_pause()`);
    try {
      await createRevenue(t.db, site, [{ day: '2026-01-06', country: 'US', revenueMicros: 2_000_000 }]);
      // A key made a moment ago works at once: keys are checked on the primary, which has it.
      const fresh = (await issueKey(owner)).raw;
      const lagging = await revenueOf(fresh);
      expect(lagging.revenue).toBe(1);
      // The validator and "data updated" say what the replica holds, not what the primary has.
      expect(lagging.etag).toBe(before.etag);
      expect((await get(TOTALS, { key, headers: { 'If-None-Match': before.etag } })).status).toBe(304);
      expect(await getDataSpan(sessionPrincipal(owner))).toEqual(spanBefore);
    } finally {
      await replica.db.execute(sql`select pg_wal_replay_resume()`);
    }
    await caughtUp();
    const after = await revenueOf();
    expect(after.revenue).toBe(3);
    expect(after.etag).not.toBe(before.etag);
    expect((await getDataSpan(sessionPrincipal(owner))).updatedAt!.getTime()).toBeGreaterThan(
      spanBefore.updatedAt!.getTime(),
    );
  });

  it('falls back to the primary while the replica is away, the export and the rows included', async () => {
    await proxy.set('refuse');
    try {
      await createRevenue(t.db, site, [{ day: '2026-01-07', country: 'DE', revenueMicros: 4_000_000 }]);
      // Only the primary has that row now: the replica is cut off from the portal, not from its primary.
      expect((await revenueOf()).revenue).toBe(7);
      const rows = await get('/api/v1/reports/countries?pageSize=10', { key });
      expect(rows.status).toBe(200);
      expect(rows.json.meta.totalRows).toBe(3);
      const exported = await get('/api/v1/reports/countries/export', {
        key,
        headers: { Accept: 'application/x-ndjson' },
      });
      expect(exported.status).toBe(200);
      expect(exported.text.trim().split('\n')).toHaveLength(3);
    } finally {
      await proxy.set('pass');
    }
  });
});

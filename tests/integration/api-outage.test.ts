import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, openPostgres, setDatabase } from '@/db/client';
import { readEnv, setEnv } from '@/lib/platform/env';
import { REQUEST_DEADLINE_MS } from '@/lib/platform/limits';
import { get } from '../support/api';
import { stamped } from '../support/client-address';
import { useTestDatabase } from '../support/db';
import { type FaultMode, type FaultProxy, startFaultProxy } from '../support/fault-proxy';
import { demoKey } from '../support/keys';
import { expectProblem } from './api-helpers';

/**
 * Issue 9, point 2, in process: the API in front of the real PostgreSQL through a TCP fault proxy that
 * refuses, hangs or resets connections. Every request gets its 503 within 2 s, and requests succeed within
 * 2 s of the database's return, on the same connection pool (no restart). The 60-second outage of the
 * production server, pages included, is e2e/outage.spec.ts. PostgreSQL only: the embedded database has no
 * network to lose.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const t = useTestDatabase();
const PATHS = ['/api/v1/sites', '/api/v1/reports/totals', '/api/v1/reports/by-country', '/api/v1/api-keys'];

describe.runIf(TEST_DATABASE_URL)('a PostgreSQL outage', () => {
  let proxy: FaultProxy;
  let throughProxy: Database;

  beforeAll(async () => {
    const { hostname, port } = new URL(TEST_DATABASE_URL!);
    proxy = await startFaultProxy({ host: hostname, port: Number(port || 5432) });
    throughProxy = await openPostgres(proxy.urlFor(TEST_DATABASE_URL!), { max: 3 });
  });

  afterAll(async () => {
    setDatabase(t.database);
    await proxy.close();
    await throughProxy.close();
  });

  it.each<FaultMode>(['refuse', 'hang', 'reset'])(
    '(%s) is answered 503 with Retry-After within 2 s, and requests succeed within 2 s of its end',
    async (mode) => {
      const { raw } = await demoKey();
      const quiet = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')].map((s) => s.mockImplementation(() => {}));
      setDatabase(throughProxy);
      try {
        expect((await get('/api/v1/sites', { key: raw })).status).toBe(200);
        await proxy.set(mode);
        for (const path of PATHS) {
          const started = performance.now();
          const res = await get(path, { key: raw });
          const took = performance.now() - started;
          expectProblem(res, 503, path);
          expect(res.headers.get('retry-after'), path).toBe('5');
          expect(took, path).toBeLessThan(2_000);
          if (mode === 'hang') expect(took, path).toBeGreaterThanOrEqual(REQUEST_DEADLINE_MS - 50);
        }
        await proxy.set('pass');
        const back = performance.now();
        let status = 0;
        while (status !== 200 && performance.now() - back < 5_000) {
          status = (await get('/api/v1/reports/totals', { key: raw })).status;
        }
        expect(status).toBe(200);
        expect(performance.now() - back).toBeLessThan(2_000);
      } finally {
        await proxy.set('pass');
        setDatabase(t.database);
        for (const spy of quiet) spy.mockRestore();
      }
    },
  );

  it('answers 503, not 429, to a caller past its address budget: the key could not even be checked', async () => {
    const { raw } = await demoKey();
    const quiet = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')].map((s) => s.mockImplementation(() => {}));
    // A budget of 3: eight requests spend it whole within one clock minute even if a minute ends among them
    // (the windows are aligned to the minute; one part of any split of eight holds four).
    setEnv(readEnv({ ...process.env, ADDRESS_RATE_LIMIT_PER_MINUTE: '3' }));
    setDatabase(throughProxy);
    await proxy.set('refuse');
    try {
      const remaining: string[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await get('/api/v1/sites', { key: raw, headers: stamped('198.51.100.77') });
        expectProblem(res, 503, '/api/v1/sites');
        remaining.push(res.headers.get('x-ratelimit-remaining') ?? '');
      }
      expect(remaining).toContain('0');
    } finally {
      await proxy.set('pass');
      setDatabase(t.database);
      setEnv(undefined);
      for (const spy of quiet) spy.mockRestore();
    }
  });
});

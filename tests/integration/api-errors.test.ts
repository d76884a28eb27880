import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { type Database, type Db, openPostgres, setDatabase } from '@/db/client';
import { apiKeys } from '@/db/schema';
import { DEMO_IDS } from '@/db/seed-data';
import { REQUEST_STATEMENT_TIMEOUT_MS } from '@/lib/platform/limits';
import { type ApiResult, callApi, get } from '../support/api';
import { openTestDatabase, useTestDatabase } from '../support/db';
import { demoKey, otherLastChar } from '../support/keys';
import { expectProblem, visibleText } from './api-helpers';

const t = useTestDatabase();

/** Installs `database` for the duration of `run`, with console.error silenced, then restores the test database. */
async function withDatabase(database: Database, run: () => Promise<void>) {
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  setDatabase(database);
  try {
    await run();
  } finally {
    setDatabase(t.database);
    quiet.mockRestore();
  }
}

/** A database whose every query fails with `error`. */
function failingDatabase(error: Error): Database {
  const db = new Proxy(
    {},
    {
      get: () => () => {
        throw error;
      },
    },
  ) as unknown as Db;
  const stream = async function* () {
    throw error;
  };
  return { db, kind: 'postgres', bulk: () => Promise.reject(error), stream, close: async () => {} };
}

describe('problem details', () => {
  it('are the body of every kind of error, with instance being the path alone', async () => {
    const { raw } = await demoKey();
    const cases: [number, () => Promise<ApiResult>, string][] = [
      [400, () => get('/api/v1/reports/by-country?pageSize=0&x=1', { key: raw }), '/api/v1/reports/by-country'],
      [401, () => get('/api/v1/sites?a=b'), '/api/v1/sites'],
      [
        403,
        () => get(`/api/v1/reports/totals?siteIds=${DEMO_IDS.sites.bubblePop}`, { key: raw }),
        '/api/v1/reports/totals',
      ],
      [404, () => get('/api/v1/nope?q=1', { key: raw }), '/api/v1/nope'],
      [
        404,
        () => callApi('DELETE', '/api/v1/api-keys/00000000-0000-4000-8000-000000000000', { key: raw }),
        '/api/v1/api-keys/00000000-0000-4000-8000-000000000000',
      ],
      [405, () => callApi('POST', '/api/v1/sites?x=1', { key: raw }), '/api/v1/sites'],
      [406, () => get('/api/v1/sites', { key: raw, headers: { Accept: 'application/xml' } }), '/api/v1/sites'],
      [
        413,
        () => callApi('POST', '/api/v1/api-keys', { key: raw, body: `{"label":"${'x'.repeat(17_000)}"}` }),
        '/api/v1/api-keys',
      ],
      [
        415,
        () => callApi('POST', '/api/v1/api-keys', { key: raw, body: 'a=b', headers: { 'Content-Type': 'text/plain' } }),
        '/api/v1/api-keys',
      ],
    ];
    for (const [status, call, path] of cases) {
      const res = await call();
      expectProblem(res, status, path);
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('ignore Accept: an error is problem+json even to a text/plain client', async () => {
    const res = await get('/api/v1/sites', { headers: { Accept: 'text/plain' } });
    expectProblem(res, 401, '/api/v1/sites');
  });
});

describe('unknown paths and methods', () => {
  it('answer 404 problem for any path under /api that is not an endpoint, with or without a key', async () => {
    const { raw } = await demoKey();
    for (const path of [
      '/api/v1/nope',
      '/api/v2/sites',
      '/api/v1/sites/extra',
      '/api/v1/reports',
      '/api/v1',
      '/api/v1/reports/totals/2024',
      '/api/v1/api-keys/for-user/x/y',
    ]) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        expectProblem(await callApi(method, path, { key: raw }), 404, path);
        expectProblem(await callApi(method, path), 404, path);
      }
    }
  });

  it('answer 405 problem with Allow to a method an endpoint does not have', async () => {
    const { raw } = await demoKey();
    const cases: [string, string, string][] = [
      ['POST', '/api/v1/sites', 'GET, HEAD'],
      ['DELETE', '/api/v1/sites', 'GET, HEAD'],
      ['POST', '/api/v1/reports/totals', 'GET, HEAD'],
      ['PUT', '/api/v1/revenues/countries', 'GET, HEAD'],
      ['GET', `/api/v1/api-keys/${DEMO_IDS.users.demo}`, 'DELETE'],
      ['PATCH', `/api/v1/api-keys/${DEMO_IDS.users.demo}`, 'DELETE'],
      ['PUT', '/api/v1/api-keys', 'GET, HEAD, POST'],
      ['DELETE', '/api/v1/api-keys', 'GET, HEAD, POST'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await callApi(method, path, { key: raw });
      expectProblem(res, 405, path);
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(`${allow}, OPTIONS`);
      const options = await callApi('OPTIONS', path, { key: raw });
      expect(options.status, `OPTIONS ${path}`).toBe(204);
      expect(options.headers.get('allow'), `OPTIONS ${path}`).toBe(`${allow}, OPTIONS`);
    }
  });
});

describe('the legacy feed with ?apiKey=', () => {
  it('never shows the raw key in any response body or header, whatever the outcome', async () => {
    const { raw } = await demoKey();
    const { raw: revoked, record } = await demoKey();
    await t.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, record.id));
    const { raw: scoped } = await demoKey({ siteIds: [DEMO_IDS.sites.skyHopper] });
    const path = '/api/v1/revenues/countries';
    const cases: [number, string, string, Record<string, string>?][] = [
      [200, 'GET', `${path}?apiKey=${raw}&pageSize=2`],
      [400, 'GET', `${path}?apiKey=${raw}&pageSize=0`],
      [400, 'GET', `${path}?apiKey=${raw}&bogus=${raw}`],
      [400, 'GET', `${path}?apiKey=${raw}&Filter=country=@`],
      [400, 'GET', `${path}?apiKey=${raw}&page=1&page=2`],
      [401, 'GET', `${path}?apiKey=${revoked}`],
      [401, 'GET', `${path}?apiKey=${otherLastChar(raw)}`],
      [403, 'GET', `${path}?apiKey=${scoped}`],
      [405, 'POST', `${path}?apiKey=${raw}`],
      [406, 'GET', `${path}?apiKey=${raw}`, { Accept: 'image/png' }],
      [404, 'GET', `/api/v1/revenues/countries/x?apiKey=${raw}`],
    ];
    for (const [status, method, url, headers] of cases) {
      const res = await callApi(method, url, { headers });
      const text = visibleText(res);
      for (const secret of [raw, revoked, scoped]) expect(text, url).not.toContain(secret.slice(12));
      if (status === 200) {
        expect(res.status, res.text).toBe(200);
        expect(res.headers.get('deprecation')).toBe('true');
        expect(res.headers.get('link')).toMatch(/<[^>]*\/api\/v1\/reports\/countries>;\s*rel="successor-version"/);
      } else {
        expectProblem(res, status, url);
        expect(res.json.instance).not.toContain('?');
      }
    }
  });
});

describe('database outages', () => {
  it('answer 503 problem with Retry-After when PostgreSQL refuses connections, and recover after', async () => {
    const { raw } = await demoKey();
    const down = await openPostgres('postgres://nobody@127.0.0.1:1/nothing', { max: 1 });
    await withDatabase(down, async () => {
      for (const path of ['/api/v1/sites', '/api/v1/api-keys', '/api/v1/reports/totals']) {
        const res = await get(path, { key: raw });
        const body = expectProblem(res, 503, path);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        // The key could not be checked, so the address's budget is spent and reported.
        expect(res.headers.get('x-ratelimit-limit')).toBe('30');
        expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
        expect(body.detail).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|select/i);
      }
    });
    await down.close();
    expect((await get('/api/v1/sites', { key: raw })).status).toBe(200);
  });

  it('answer 503 when the database has been closed (shutting down)', async () => {
    const { raw } = await demoKey();
    const closed = await openTestDatabase();
    await closed.close();
    await withDatabase(closed, async () => {
      const res = await get('/api/v1/sites', { key: raw });
      expectProblem(res, 503, '/api/v1/sites');
      expect(res.headers.get('x-ratelimit-limit')).toBe('30');
    });
  });

  it('answer 503 for connection-level error codes, and 500 for anything else', async () => {
    const { raw } = await demoKey();
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'CONNECTION_ENDED', '57P01', '53300']) {
      const error = Object.assign(new Error(`simulated ${code}`), { code });
      await withDatabase(failingDatabase(error), async () => {
        expectProblem(await get('/api/v1/sites', { key: raw }), 503, '/api/v1/sites');
      });
    }
    await withDatabase(failingDatabase(Object.assign(new Error('syntax'), { code: '42601' })), async () => {
      const res = await get('/api/v1/sites', { key: raw });
      const body = expectProblem(res, 500, '/api/v1/sites');
      expect(body.detail).toContain(res.headers.get('x-request-id'));
      expect(body.detail).not.toContain('syntax');
    });
  });

  it('answer 503 saying to ask for less when a query is stopped at the statement timeout', async () => {
    const { raw } = await demoKey();
    const timedOut = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    await withDatabase(failingDatabase(timedOut), async () => {
      const res = await get('/api/v1/reports/totals', { key: raw });
      const body = expectProblem(res, 503, '/api/v1/reports/totals');
      expect(res.headers.get('retry-after')).toBe('5');
      expect(body.detail).toBe(
        `The query ran longer than the ${REQUEST_STATEMENT_TIMEOUT_MS / 1000} s a request may use and was stopped; ask for less (fewer or narrower Filter terms, fewer sites, a shorter range) or retry later.`,
      );
    });
  });

  // PGlite runs no statement timeout (one connection, in process); PostgreSQL (CI's second pass) does.
  it.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL, every request statement is stopped after 2 s', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const pool = await openPostgres(url, { max: 1 });
    const [{ statement_timeout }] = (await pool.db.execute(sql`show statement_timeout`)) as unknown as [
      { statement_timeout: string },
    ];
    expect(statement_timeout).toBe(`${REQUEST_STATEMENT_TIMEOUT_MS / 1000}s`);
    await pool.close();
    // The driver's real error for a statement stopped at its timeout is the 503 above: a report that waits
    // for revenue tables another session holds locked runs into a short timeout for sure.
    const { raw } = await demoKey();
    const locker = await openPostgres(url, { max: 1, statementTimeoutMs: 0 });
    const impatient = await openPostgres(url, { max: 2, statementTimeoutMs: 300 });
    let unlock = () => {};
    const released = new Promise<void>((resolve) => (unlock = resolve));
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = locker.db.transaction(async (tx) => {
      await tx.execute(sql`lock table revenue_daily, revenue_rollup in access exclusive mode`);
      locked();
      await released;
    });
    await isLocked;
    await withDatabase(impatient, async () => {
      const res = await get('/api/v1/reports/totals', { key: raw });
      expect(expectProblem(res, 503, '/api/v1/reports/totals').detail).toContain('ask for less');
    });
    unlock();
    await holding;
    await Promise.all([impatient.close(), locker.close()]);
  });
});

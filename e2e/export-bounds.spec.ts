import http from 'node:http';
import { expect, test } from '@playwright/test';
import postgres from 'postgres';
import { signIn, USERS } from './support/dashboard';
import {
  createApiKeys,
  type DatabaseEnv,
  makeTempDir,
  type ServerProcess,
  seededPostgresDatabase,
  startServer,
} from './support/servers';

/**
 * Issue 18, point 1, through real production servers and real sockets: HEADs as curl -I sends them, a client
 * whose TCP window closes mid-download, and 10 stalled dashboard downloads, on the embedded database and (with
 * TEST_DATABASE_URL) on PostgreSQL, where pg_stat_activity must show nothing left behind. The stall limit is
 * 3 s here (EXPORT_STALL_SECONDS; 30 s by default) so the suite does not wait half a minute per case.
 */
test.describe.configure({ timeout: 240_000 });

const STALL_SECONDS = 3;
const EXPORT = '/api/v1/reports/countries/export';
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

interface Setup {
  server: ServerProcess;
  demoKeys: string[];
  rivalKey: string;
  /** Sessions of the server's database that are not idle (PostgreSQL only). */
  busySessions?: () => Promise<number>;
  close(): Promise<void>;
}

async function embedded(): Promise<Setup> {
  const database = { PGLITE_DIR: makeTempDir('exports') };
  return serve('exports-embedded', database);
}

async function onPostgres(): Promise<Setup> {
  const url = await seededPostgresDatabase(TEST_DATABASE_URL!, 'exports');
  const setup = await serve('exports-postgres', { DATABASE_URL: url });
  const probe = postgres(url, { max: 1, onnotice: () => {} });
  return {
    ...setup,
    busySessions: async () => {
      const [{ busy }] = await probe`select count(*)::int as busy from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`;
      return busy;
    },
    close: async () => {
      await probe.end();
      await setup.close();
    },
  };
}

async function serve(name: string, database: DatabaseEnv): Promise<Setup> {
  const demoKeys = await createApiKeys(database, 2);
  const [rivalKey] = await createApiKeys(database, 1, USERS.rival.email);
  const server = await startServer({ name, database, env: { EXPORT_STALL_SECONDS: String(STALL_SECONDS) } });
  return { server, demoKeys, rivalKey, close: () => server.stop() };
}

/**
 * A GET whose reader stops after the first bytes: its TCP window closes once the buffers are full. A paused
 * socket sees nothing of what the server does meanwhile; `resume` reads on and tells whether the transfer
 * ended whole or was cut off.
 */
function stalledGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; resume: () => Promise<string> }>(
    (resolve, reject) => {
      http
        .get(url, { headers }, (res) => {
          const ended = new Promise<string>((done) => {
            res.once('close', () => done(res.complete ? 'whole' : 'cut off'));
            res.once('error', () => {}); // the close that follows says it
          });
          if (res.statusCode === 200) res.once('data', () => res.pause());
          const resume = () => {
            res.resume();
            return ended;
          };
          resolve({ status: res.statusCode ?? 0, headers: res.headers, resume });
        })
        .on('error', reject);
    },
  );
}

/** The status of a response whose body is read whole (an unread export would hold its slot until cut off). */
const statusOf = async (response: Promise<Response>) => {
  const answered = await response;
  await answered.arrayBuffer();
  return answered.status;
};

const timed = async <T>(run: () => Promise<T>) => {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
};

for (const [kind, open] of [
  ['embedded database', embedded],
  ['PostgreSQL', onPostgres],
] as const) {
  test.describe(`exports on the ${kind}`, () => {
    test.skip(kind === 'PostgreSQL' && !TEST_DATABASE_URL, 'needs TEST_DATABASE_URL: a PostgreSQL server');
    let setup: Setup;
    test.beforeAll(async () => {
      test.setTimeout(240_000);
      setup = await open();
    });
    test.afterAll(async () => setup?.close());

    const api = (path: string, key: string, init: RequestInit = {}) =>
      fetch(`${setup.server.url}${path}`, { ...init, headers: { 'X-Api-Key': key, ...init.headers } });

    test('20 HEADs on the export, then the same key reports and exports', async () => {
      const [key] = setup.demoKeys;
      for (let i = 0; i < 20; i++) {
        const head = await api(EXPORT, key, { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(head.headers.get('content-disposition')).toMatch(/^attachment; filename="revenue-rows-/);
      }
      expect(await statusOf(api('/api/v1/reports/totals', key))).toBe(200);
      const whole = await api(EXPORT, key);
      expect(whole.status).toBe(200);
      expect((await whole.text()).split('\n').length).toBeGreaterThan(10_000);
      if (setup.busySessions) await expect.poll(setup.busySessions).toBe(0);
    });

    test('a client that stops reading is cut off, and the key reports again', async () => {
      const [key] = setup.demoKeys;
      // NDJSON, the larger form: far more than the sockets' buffers hold. Two: every slot of the key.
      const stalled = await Promise.all(
        [1, 2].map(() =>
          stalledGet(`${setup.server.url}${EXPORT}`, { 'X-Api-Key': key, Accept: 'application/x-ndjson' }),
        ),
      );
      expect(stalled.map((s) => s.status)).toEqual([200, 200]);
      expect(await statusOf(api('/api/v1/reports/totals', key))).toBe(429); // both slots held while they stall
      // While the two still stall, the server gives their slots back once the stall limit has passed.
      const { ms } = await timed(() =>
        expect.poll(() => statusOf(api('/api/v1/reports/totals', key)), { timeout: 15_000 }).toBe(200),
      );
      expect(ms).toBeGreaterThan((STALL_SECONDS - 1) * 1000);
      expect(ms).toBeLessThan((STALL_SECONDS + 5) * 1000);
      if (setup.busySessions) await expect.poll(setup.busySessions).toBe(0);
      expect(await statusOf(api(EXPORT, key))).toBe(200);
      expect(await Promise.all(stalled.map((s) => s.resume()))).toEqual(['cut off', 'cut off']);
      expect(setup.server.output()).toContain('download cut off: the client stopped reading');
    });

    test('10 stalled dashboard downloads leave another account its reports', async ({ page }) => {
      await page.goto(`${setup.server.url}/login`);
      await signIn(page, USERS.demo.email);
      await expect(page).toHaveURL(/\/$/);
      const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
      // A year of the demo account's rows: about 10 MB, more than the sockets' buffers hold.
      const from = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
      const rows = `${setup.server.url}/export/rows?from=${from}`;
      for (let i = 0; i < 20; i++) {
        const head = await fetch(rows, { method: 'HEAD', headers: { cookie } });
        expect(head.status).toBe(200);
      }
      const downloads = [];
      for (let i = 0; i < 10; i++) downloads.push(await stalledGet(rows, { cookie }));
      const statuses = downloads.map((d) => d.status).sort();
      // The account's two export slots; the others are refused at once, saying when to retry.
      expect(statuses).toEqual([200, 200, 429, 429, 429, 429, 429, 429, 429, 429]);
      expect(downloads.find((d) => d.status === 429)!.headers['retry-after']).toBe('5');
      const { value: report, ms } = await timed(() => api('/api/v1/reports/by-country', setup.rivalKey));
      expect(report.status).toBe(200);
      expect(ms).toBeLessThan(2_000);
      // A download read whole at once (no cursor held open) is not counted with the exports.
      expect(await statusOf(fetch(`${setup.server.url}/export/daily`, { headers: { cookie } }))).toBe(200);
      await expect.poll(() => statusOf(fetch(rows, { headers: { cookie } })), { timeout: 15_000 }).toBe(200);
      if (setup.busySessions) await expect.poll(setup.busySessions).toBe(0);
      const held = downloads.filter((d) => d.status === 200);
      expect(await Promise.all(held.map((d) => d.resume()))).toEqual(['cut off', 'cut off']);
      await Promise.all(downloads.filter((d) => d.status !== 200).map((d) => d.resume()));
    });
  });
}

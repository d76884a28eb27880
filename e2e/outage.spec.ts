import { expect, type Page, test } from '@playwright/test';
import { type FaultMode, type FaultProxy, startFaultProxy } from '../tests/support/fault-proxy';
import { secretsIn } from '../tests/support/secrets';
import { signIn, USERS } from './support/dashboard';
import { createApiKeys, seededPostgresDatabase, type ServerProcess, sleep, startServer } from './support/servers';

/**
 * Issue 9, point 2: the production server on PostgreSQL through a TCP fault proxy, during a 60-second outage
 * that refuses, then hangs, then resets connections. Every API request gets a 503 problem with Retry-After
 * within 2 s; every dashboard page and the CSV export the app's own 503; within 2 s of the database's return
 * everything works again, on the same server. Needs a real PostgreSQL (TEST_DATABASE_URL, as in CI): the
 * embedded database has no network to lose.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
test.skip(!TEST_DATABASE_URL, 'needs TEST_DATABASE_URL: a PostgreSQL server to put the fault proxy in front of');
test.describe.configure({ timeout: 180_000 });

const PHASE_MS = 20_000;
const API_PATHS = ['/api/v1/sites', '/api/v1/reports/totals', '/api/v1/reports/by-country', '/api/v1/api-keys'];
const PAGES = ['/', '/countries', '/sites', '/keys', '/export/countries'];

let proxy: FaultProxy;
let server: ServerProcess;
let apiKey: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const url = new URL(await seededPostgresDatabase(TEST_DATABASE_URL!, 'outage'));
  [apiKey] = await createApiKeys({ DATABASE_URL: url.toString() }, 1);
  proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port || 5432) });
  server = await startServer({ name: 'outage', database: { DATABASE_URL: proxy.urlFor(url.toString()) } });
});

test.afterAll(async () => {
  await server?.stop();
  await proxy?.close();
});

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

async function expectApiOutage(path: string) {
  const { value: response, ms } = await timed(() =>
    fetch(`${server.url}${path}`, { headers: { 'X-Api-Key': apiKey } }),
  );
  const body = await response.json();
  expect(response.status, path).toBe(503);
  expect(response.headers.get('content-type'), path).toContain('application/problem+json');
  expect(response.headers.get('retry-after'), path).toBe('5');
  expect(body.status, path).toBe(503);
  expect(ms, path).toBeLessThan(2_000);
}

async function expectPageOutage(page: Page, path: string) {
  const { value: response, ms } = await timed(() => page.goto(`${server.url}${path}`));
  expect(response!.status(), path).toBe(503);
  expect(response!.headers()['retry-after'], path).toBe('5');
  await expect(page.getByRole('heading', { name: 'The portal is temporarily unavailable' }), path).toBeVisible();
  expect(ms, path).toBeLessThan(2_000);
}

/** How long after `since` until `check` first passes, polling. */
async function recoveredWithin(check: () => Promise<boolean>, since: number): Promise<number> {
  while (!(await check())) {
    if (performance.now() - since > 10_000) throw new Error('not recovered within 10 s');
    await sleep(50);
  }
  return performance.now() - since;
}

test('a 60-second outage: 503s within 2 s throughout, and everything works within 2 s of the return', async ({
  page,
}) => {
  await page.goto(`${server.url}/login`);
  await signIn(page, USERS.demo.email);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  const session = (await page.context().cookies()).find((c) => c.name === 'portal_session')!.value;

  const answered: Record<string, number> = {};
  for (const mode of ['refuse', 'hang', 'reset'] as FaultMode[]) {
    await proxy.set(mode);
    const end = performance.now() + PHASE_MS;
    for (let i = 0; performance.now() < end; i++) {
      await expectApiOutage(API_PATHS[i % API_PATHS.length]);
      await expectPageOutage(page, PAGES[i % PAGES.length]);
      answered[mode] = (answered[mode] ?? 0) + 2;
    }
  }

  await proxy.set('pass');
  const back = performance.now();
  const api = await recoveredWithin(
    async () => (await fetch(`${server.url}/api/v1/reports/totals`, { headers: { 'X-Api-Key': apiKey } })).ok,
    back,
  );
  const pages = await recoveredWithin(async () => (await page.goto(`${server.url}/countries`))!.ok(), back);
  const figures = {
    answersDuringOutage: answered,
    apiBackAfterMs: Math.round(api),
    pagesBackAfterMs: Math.round(pages),
  };
  console.log(`outage: ${JSON.stringify(figures)}`);
  expect(api).toBeLessThan(2_000);
  expect(pages).toBeLessThan(2_000);
  await expect(page.getByRole('heading', { name: 'Countries' })).toBeVisible();
  const exported = await page.request.get(`${server.url}/export/countries`);
  expect(exported.status()).toBe(200);

  // Nothing secret reached the server's log while the database was away.
  const log = server.output();
  expect(secretsIn(log, [apiKey, session])).toEqual([]);
});

import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { type AppendingProxy, startAppendingProxy } from './support/appending-proxy';
import { inOneSignInWindow, signIn, USERS } from './support/dashboard';
import { waitForRoomInWindow } from './support/rate-limit';
import { createApiKeys, e2ePort, makeTempDir, type ServerProcess, startServer } from './support/servers';

/**
 * Issue 18 point 2 on real servers: a client who writes the address headers himself gets no budget of his own,
 * under a server that is not ours (`next start`, which stamps no address) and behind a load balancer that
 * appends to X-Forwarded-For (TRUST_PROXY=1). Our own server (npm start) is e2e/ratelimit.spec.ts. Each server
 * has its own copy of one embedded database with the demo data and a key.
 */

const ADDRESS_LIMIT = 30;
const SITES = '/api/v1/sites';
let workDir: string;
let key: string;
let nextStart: ServerProcess;
let behindProxy: ServerProcess;
let proxy: AppendingProxy;
const servers: ServerProcess[] = [];

/** A different forgery each time: the stamp bare or in its signed shape, and any X-Forwarded-For. */
const forged = (i: number): Record<string, string> => ({
  'X-Portal-Client-Address': i % 2 ? `203.0.113.${i}` : `203.0.113.${i} ${'A'.repeat(43)}`,
  'X-Forwarded-For': `198.51.100.${i}, 192.0.2.${i}`,
});

async function get(base: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${SITES}`, { headers, signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer();
  return response;
}

/**
 * 30 requests without a key answer 401 with Remaining 29…0, then 429: one budget, whatever each one claims.
 * They start in a fresh stretch of the clock-aligned window: one that ended mid-series would refill the budget.
 */
async function expectOneBudget(base: string, headersOf: (i: number) => Record<string, string>) {
  test.setTimeout(120_000);
  await waitForRoomInWindow(30_000);
  for (let i = 0; i < ADDRESS_LIMIT; i++) {
    const response = await get(base, headersOf(i));
    expect(response.status, `request ${i + 1}`).toBe(401);
    expect(response.headers.get('x-ratelimit-remaining'), `request ${i + 1}`).toBe(String(ADDRESS_LIMIT - 1 - i));
  }
  for (let i = ADDRESS_LIMIT; i < ADDRESS_LIMIT + 5; i++) {
    expect((await get(base, headersOf(i))).status, JSON.stringify(headersOf(i))).toBe(429);
  }
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  workDir = makeTempDir('client-address');
  const template = path.join(workDir, 'template', 'pglite');
  [key] = await createApiKeys({ PGLITE_DIR: template }, 1);
  const copy = (name: string) => {
    const dataDir = path.join(workDir, name, 'pglite');
    fs.cpSync(template, dataDir, { recursive: true });
    return { PGLITE_DIR: dataDir };
  };
  // Ready when a page answers: an unkeyed API poll would spend the address budget under test.
  const ready = { path: '/login', status: 200 };
  const starts = await Promise.allSettled([
    // Not ours: it cannot say where it listens, so the demo data needs ALLOW_DEMO (e2e/open-door.spec.ts).
    startServer({
      name: 'next-start',
      entry: 'next-start',
      port: e2ePort(6),
      database: copy('next-start'),
      env: { ALLOW_DEMO: '1' },
      ready,
    }).then((s) => servers.push((nextStart = s))),
    startServer({
      name: 'behind-proxy',
      entry: 'start',
      port: e2ePort(7),
      database: copy('behind-proxy'),
      env: { TRUST_PROXY: '1' },
      ready,
    }).then((s) => servers.push((behindProxy = s))),
  ]);
  const failed = starts.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  proxy = await startAppendingProxy(behindProxy.url, e2ePort(8));
});

test.afterAll(async () => {
  await proxy?.close();
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

test.describe('next start, without TRUST_PROXY: no address is believed', () => {
  test('forged stamps and X-Forwarded-For share one budget of 30 without a key; a valid key still works', async () => {
    await expectOneBudget(nextStart.url, forged);
    expect(nextStart.output()).toContain('Client addresses are unknown');
    const keyed = await get(nextStart.url, { 'X-Api-Key': key, ...forged(99) });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('x-ratelimit-remaining')).toBe('119');
  });

  test('ten wrong passwords, each under a different forged address, then even the right one is throttled', async ({
    browser,
  }) => {
    /** One submission under the i-th forgery, in a browser context of its own; the form's alert must say `answer`. */
    const attempt = async (i: number, password: string, answer: string | RegExp) => {
      const context = await browser.newContext({ extraHTTPHeaders: forged(i) });
      const page = await context.newPage();
      await page.goto(`${nextStart.url}/login`);
      await signIn(page, USERS.demo.email, password);
      await expect(page.locator('form').getByRole('alert')).toHaveText(answer);
      await context.close();
    };
    // Eleven browsers signing in on a busy machine; the window wait, if any, comes on top.
    test.setTimeout(150_000);
    await inOneSignInWindow(120_000);
    for (let i = 0; i < 10; i++) await attempt(i, `wrong-${i}`, 'Invalid email or password');
    await attempt(10, 'demo-password', /^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
  });
});

test.describe('npm start behind a load balancer that appends to X-Forwarded-For (TRUST_PROXY=1)', () => {
  test('the entry the balancer appended is the client: what the client writes to its left buys no budget', async () => {
    await expectOneBudget(proxy.url, forged);
    // Straight to the server, past the balancer, a client names himself: why TRUST_PROXY needs every request
    // to come through the proxies it counts (README, Client address).
    expect((await get(behindProxy.url, { 'X-Forwarded-For': '192.0.2.200' })).status).toBe(401);
  });
});

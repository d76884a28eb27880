import fs from 'node:fs';
import path from 'node:path';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  test as base,
  expect,
} from '@playwright/test';
import { SIGN_IN_LIMITS } from '@/lib/platform/limits';
import { ROOT } from './servers';

/**
 * Shared pieces of the dashboard specs: the demo accounts and their saved sessions (made once by
 * e2e/dashboard.setup.ts), a `test` that fails on any console error or uncaught page error, and helpers
 * for keys, KPI cards and the API.
 */

const PASSWORD = 'demo-password';

/** The webServer's address (playwright.config.ts), for contexts opened outside the test's own. */
export const BASE_URL = `http://127.0.0.1:${process.env.E2E_PORT ?? 3200}`;

export const USERS = {
  demo: { email: 'demo@example.com', name: 'Demo Games Ltd' },
  rival: { email: 'rival@example.com', name: 'Rival Interactive' },
  admin: { email: 'admin@example.com', name: 'Portal Admin' },
  // Members of the demo publisher's account (db/seed-data.ts DEMO_MEMBERS): Finance, and a Viewer of Sky Hopper.
  finance: { email: 'finance@example.com', name: 'Fiona Finance' },
  viewer: { email: 'viewer@example.com', name: 'Victor Viewer' },
  // Members of the operator's account (admin@example.com's): their platform powers follow their role there.
  opsAdmin: { email: 'ops-admin@example.com', name: 'Olga Ops' },
  opsFinance: { email: 'ops-finance@example.com', name: 'Otto Payouts' },
  opsViewer: { email: 'ops-viewer@example.com', name: 'Olive Observer' },
} as const;
export type DemoUser = keyof typeof USERS;

/** The demo seed's sites (db/seed-data.ts), by owner. */
export const DEMO_SITES = ['Sky Hopper', 'Merge Kingdom', 'Drift Racers 3D', 'Word Garden', 'Dungeon Dash'];
export const RIVAL_SITES = ['Bubble Pop Saga', 'Tank Arena.io'];

/** Where the setup project keeps each account's signed-in storage state (cookies). */
export const authFile = (user: DemoUser) => path.join(ROOT, '.data', 'e2e-auth', `${user}.json`);

export const DASHBOARD_ROUTES = ['/', '/countries', '/sites', '/keys'] as const;

const KPIS = {
  revenue: { testId: 'kpi-revenue', api: 'totalRevenue' },
  impressions: { testId: 'kpi-impressions', api: 'totalImpressions' },
  requests: { testId: 'kpi-adRequests', api: 'totalRequests' },
  ecpm: { testId: 'kpi-cpm', api: 'averageCpm' },
  fillRate: { testId: 'kpi-fillRate', api: 'fillRate' },
} as const;

export interface Totals {
  totalRevenue: number;
  totalImpressions: number;
  totalRequests: number;
  averageCpm: number;
  fillRate: number;
}

/** Fills and submits the sign-in form of the current page (which must be /login). */
/**
 * Waits, when the sign-in throttle's fixed window (aligned to the clock) ends within `needMs`, until the next
 * one starts: a series of attempts that straddled the edge would be counted in two windows and never throttled.
 */
export async function inOneSignInWindow(needMs: number) {
  const { windowMs } = SIGN_IN_LIMITS;
  const left = windowMs - (Date.now() % windowMs);
  if (left >= needMs) return;
  base.info().setTimeout(base.info().timeout + left + 1_000);
  await new Promise((resolve) => setTimeout(resolve, left + 1_000));
}

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

interface Fixtures {
  /** Console errors and uncaught exceptions of every page the test opened; the test fails on any. */
  consoleErrors: string[];
  /** A page in a new context signed in as that demo account (or signed out with `null`). */
  openAs: (user: DemoUser | null, options?: { viewport?: { width: number; height: number } }) => Promise<Page>;
}

function watch(page: Page, errors: string[]) {
  page.on('console', (message) => {
    // A 404 page is meant to answer 404; the browser reports that of the document itself as an error.
    // On a 404 page the browser also asks for /favicon.ico by itself (no page asks for it): not the page's error.
    const notFound = / status of 404 /.test(message.text());
    const own404 = notFound && [page.url(), new URL('/favicon.ico', page.url()).href].includes(message.location().url);
    if (message.type() === 'error' && !own404)
      errors.push(`console error on ${page.url()} [${message.location().url}]: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught ${error.name} on ${page.url()}: ${error.message}`));
}

function watchContext(context: BrowserContext, errors: string[]) {
  for (const page of context.pages()) watch(page, errors);
  context.on('page', (page) => watch(page, errors));
}

export const test = base.extend<Fixtures>({
  consoleErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      watchContext(context, errors);
      await use(errors);
      expect(errors, 'console errors and uncaught page errors').toEqual([]);
    },
    { auto: true },
  ],
  openAs: async ({ browser, consoleErrors }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (user, options = {}) => {
      const context = await newContext(browser, user, options);
      watchContext(context, consoleErrors);
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
});
export { expect };

async function newContext(
  browser: Browser,
  user: DemoUser | null,
  options: { viewport?: { width: number; height: number } } = {},
) {
  if (user && !fs.existsSync(authFile(user))) throw new Error(`no saved session for ${user}: run the setup project`);
  return browser.newContext({
    baseURL: BASE_URL,
    ...(user ? { storageState: authFile(user) } : {}),
    ...options,
  });
}

let labelCounter = 0;
/** A key label no other test uses, so rows can be found by it. */
export function uniqueLabel(what: string) {
  return `e2e ${what} ${Date.now().toString(36)}${(labelCounter++).toString(36)}`;
}

export interface CreatedKey {
  key: string;
  label: string;
  prefix: string;
}

/**
 * Creates a key through the dashboard's dialog on /keys and returns the raw key shown once; the dialog is
 * closed again. `sites` restricts it to those sites (by name); `forPublisher` is the admin's variant.
 */
export async function createKeyInUi(
  page: Page,
  options: { label?: string; sites?: string[]; expiresOn?: string; forPublisher?: string } = {},
): Promise<CreatedKey> {
  const label = options.label ?? uniqueLabel('key');
  if (!page.url().endsWith('/keys')) await page.goto('/keys');
  const trigger = options.forPublisher ? 'Create key for a publisher' : 'Create key';
  await page.getByRole('button', { name: trigger, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  if (options.forPublisher) await dialog.getByLabel('Publisher').selectOption({ label: options.forPublisher });
  await dialog.getByLabel('Label').fill(label);
  for (const site of options.sites ?? []) await dialog.getByRole('checkbox', { name: site }).check();
  if (options.expiresOn) {
    await dialog.getByLabel('Expires', { exact: true }).selectOption({ label: 'On a date…' });
    await dialog.getByLabel('Expires on').fill(options.expiresOn);
  }
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const reveal = page.getByTestId('new-api-key');
  await expect(reveal).toHaveText(/^rpk_[0-9A-Za-z]+$/);
  const key = (await reveal.textContent())!.trim();
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  // A key made for a publisher is on that publisher's list, not on this one.
  if (options.forPublisher) return { key, label, prefix: '' };
  const row = keyRow(page, label);
  await expect(row).toBeVisible();
  const prefix = (await row.locator('td').nth(1).textContent())!.replace('…', '').trim();
  expect(key.startsWith(prefix), `the key starts with the prefix the table shows (${prefix})`).toBe(true);
  return { key, label, prefix };
}

/** The table row of the key with that label on /keys. */
export const keyRow = (page: Page, label: string): Locator =>
  page.getByTestId('api-key-row').filter({ has: page.getByRole('cell', { name: label, exact: true }) });

/** GET on the API with a key; returns the status and the parsed JSON body (or null). */
export async function apiGet<T = unknown>(
  request: APIRequestContext,
  key: string,
  url: string,
): Promise<{ status: number; body: T }> {
  const response = await request.get(url, { headers: { 'X-Api-Key': key } });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status(), body: body as T };
}

export async function apiTotals(
  request: APIRequestContext,
  key: string,
  range: { from: string; to: string; sites?: string[] | null },
) {
  const params = new URLSearchParams({ fromDate: range.from, toDate: range.to });
  if (range.sites?.length) params.set('siteIds', range.sites.join(','));
  const { status, body } = await apiGet<Totals>(request, key, `/api/v1/reports/totals?${params}`);
  expect(status, `totals answered ${JSON.stringify(body)}`).toBe(200);
  return body;
}

/** The KPI cards' exact values (their data-value attributes) as the API names them. */
export async function kpiValues(page: Page): Promise<Totals> {
  const values: Record<string, number> = {};
  for (const { testId, api } of Object.values(KPIS)) {
    const raw = await page.getByTestId(testId).getAttribute('data-value');
    expect(raw, `${testId} has a data-value`).not.toBeNull();
    values[api] = Number(raw);
  }
  return values as unknown as Totals;
}

/** The filter bar's range as the page shows it (From and To inputs). */
export async function shownRange(page: Page) {
  return {
    from: await page.getByLabel('From', { exact: true }).inputValue(),
    to: await page.getByLabel('To', { exact: true }).inputValue(),
  };
}

/** `YYYY-MM-DD` of the UTC day `days` after `day`. */
export function addDays(day: string, days: number) {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * A key for that account made through the dashboard in a context of its own (for beforeAll hooks, where
 * the test's page does not exist yet); fails on console errors like a test would.
 */
export async function createKeyAs(browser: Browser, user: DemoUser, options: Parameters<typeof createKeyInUi>[1] = {}) {
  const context = await newContext(browser, user);
  const errors: string[] = [];
  watchContext(context, errors);
  try {
    const created = await createKeyInUi(await context.newPage(), options);
    expect(errors, 'console errors while creating a key').toEqual([]);
    return created;
  } finally {
    await context.close();
  }
}

export interface SiteInfo {
  siteId: string;
  name: string;
}

/** The sites a key can read, from the API. */
export async function apiSites(request: APIRequestContext, key: string): Promise<SiteInfo[]> {
  const { status, body } = await apiGet<SiteInfo[]>(request, key, '/api/v1/sites');
  expect(status).toBe(200);
  return body;
}

/**
 * Waits until React has hydrated the page (its elements carry React's fiber keys), so keyboard and focus
 * checks exercise the application rather than the server-rendered HTML before its scripts run.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const main = document.querySelector('main');
    return !!main && Object.keys(main).some((k) => k.startsWith('__reactFiber'));
  });
}

/**
 * The overview's charts load when they come near the viewport (components/reports/charts/lazy-charts.tsx): scrolls
 * to each so that it renders, waits for its SVG, and scrolls back to the top.
 */
export async function renderCharts(page: Page) {
  const figures = page.getByRole('figure');
  await expect(figures.first()).toBeVisible();
  for (const figure of await figures.all()) {
    await figure.scrollIntoViewIfNeeded();
    // The chart's own surface, not a legend icon's.
    await expect(figure.locator('.recharts-wrapper > svg.recharts-surface')).toBeVisible();
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

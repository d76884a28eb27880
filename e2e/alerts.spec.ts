import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectNoViolations } from './support/axe';
import { signIn, USERS } from './support/dashboard';
import { createApiKeys, makeTempDir, type ServerProcess, startServer } from './support/servers';

/**
 * Issue 42, point 1 in the browser: an import through the ingestion endpoint drops one demo site to 40 % of its
 * day; the evaluation runs after the answer (the jobs outbox), and the publisher finds the alert on the Alerts
 * page, naming the site and the countries behind it, acknowledges it, and sees the day marked on the overview's
 * chart. A server of its own on a copy of the demo data: the shared one's figures stay as the other specs know them.
 */

let server: ServerProcess;
let demoKey: string;
let adminKey: string;

/** Yesterday (UTC): the last complete day, which the evaluation judges. */
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const database = { PGLITE_DIR: path.join(makeTempDir('alerts'), 'pglite') };
  [demoKey] = await createApiKeys(database, 1);
  [adminKey] = await createApiKeys(database, 1, USERS.admin.email);
  server = await startServer({ name: 'alerts', database });
});

test.afterAll(async () => {
  await server?.stop();
});

const api = async (method: string, route: string, key: string, body?: string) => {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { 'X-Api-Key': key, ...(body ? { 'Content-Type': 'text/csv' } : {}) },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, json: await response.json() };
};

test('an import that drops a site raises a revenue.drop the publisher sees, acknowledges and finds on the chart', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const sites = (await api('GET', '/api/v1/sites', demoKey)).json as { siteId: string; name: string }[];
  const site = sites.find((s) => s.name === 'Sky Hopper')!;
  const rows = await api(
    'GET',
    `/api/v1/reports/countries?Filter=createdAt==${yesterday}&FilterList[gameId]=${site.siteId}&pageSize=1000`,
    demoKey,
  );
  expect(rows.status).toBe(200);
  type Row = { country: string; impressions: number; clicks: number; adRequests: number; revenueAmount: number };
  const csv = [
    'day,siteId,country,impressions,clicks,adRequests,revenue,adUnitId',
    ...(rows.json.data as Row[]).map(
      (r) =>
        `${yesterday},${site.siteId},${r.country},${r.impressions},${r.clicks},${r.adRequests},${(r.revenueAmount * 0.4).toFixed(6)},`,
    ),
  ].join('\n');
  const ingested = await api('POST', '/api/v1/admin/revenue', adminKey, csv);
  expect(ingested.status, JSON.stringify(ingested.json)).toBe(200);

  // The evaluation runs after the answer: the alert is there within moments.
  await expect
    .poll(async () => {
      const found = await api('GET', `/api/v1/alerts?Filter=kind==revenue.drop;siteId==${site.siteId}`, demoKey);
      return found.json.data.map((a: { day: string }) => a.day);
    })
    .toContain(yesterday);

  await page.goto(`${server.url}/login`);
  await signIn(page, USERS.demo.email);
  await page.waitForURL(`${server.url}/`);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  const alert = page
    .getByRole('list', { name: 'Alerts' })
    .getByRole('listitem')
    .filter({ hasText: /^.*Sky Hopper earned/ });
  await expect(alert).toHaveCount(1);
  await expect(alert).toContainText('Revenue drop');
  await expect(alert).toContainText(/, \d\d\.\d% below the usual \$/);
  await expect(alert).toContainText(/most of the difference: /);
  await expectNoViolations(page, 'the Alerts page');

  await alert.getByRole('link', { name: /Countries that day/ }).click();
  await expect(page).toHaveURL(new RegExp(`/countries\\?from=${yesterday}&to=${yesterday}&sites=${site.siteId}`));
  await page.goBack();

  await alert.getByRole('button', { name: /^Acknowledge/ }).click();
  // Open alerts only: it leaves the list, and "All alerts" shows it acknowledged.
  await expect(alert).toHaveCount(0);
  await page.getByLabel('Show').selectOption('all');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(alert).toContainText('Acknowledged');

  // The overview of that site marks the day on its chart.
  await page.goto(`${server.url}/?sites=${site.siteId}`);
  await expect(page.getByRole('figure', { name: /per day, chart: .*1 day marked as unusual/ })).toBeVisible();
});

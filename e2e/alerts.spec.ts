import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { expectNoViolations } from './support/axe';
import { signIn, USERS } from './support/dashboard';
import { createApiKeys, makeTempDir, type ServerProcess, startServer } from './support/servers';

/**
 * Issue 42 in the browser: the publisher adds a webhook in Settings → Webhooks (to a receiver of this test, which
 * verifies every delivery with the secret the dialog showed once) and sends it a test event; an import through the
 * ingestion endpoint drops one demo site to 40 % of its day; the evaluation runs after the answer (the jobs
 * outbox), the receiver gets `data.updated` and the `revenue.drop`, and the publisher finds the alert on the
 * Alerts page, naming the site and the countries behind it, acknowledges it, and sees the day marked on the
 * overview's chart. A server of its own on a copy of the demo data (the shared one's figures stay as the other
 * specs know them), allowed to deliver to 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE=1).
 */

let server: ServerProcess;
let demoKey: string;
let adminKey: string;
let receiver: http.Server;
let receiverUrl: string;
/** What the receiver got: each request's headers and body. */
const received: { headers: Record<string, string>; body: string }[] = [];

/** Yesterday (UTC): the last complete day, which the evaluation judges. */
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const database = { PGLITE_DIR: path.join(makeTempDir('alerts'), 'pglite') };
  [demoKey] = await createApiKeys(database, 1);
  [adminKey] = await createApiKeys(database, 1, USERS.admin.email);
  server = await startServer({ name: 'alerts', database, env: { WEBHOOK_ALLOW_PRIVATE: '1' } });
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers as Record<string, string>, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/portal-events`;
});

test.afterAll(async () => {
  await server?.stop();
  receiver?.closeAllConnections();
  receiver?.close();
});

/** The event types the receiver got so far, each verified with the webhook's secret (it throws otherwise). */
const verifiedTypes = (secret: string) =>
  received.map((r) => (new Webhook(secret).verify(r.body, r.headers) as { type: string }).type);

const api = async (method: string, route: string, key: string, body?: string) => {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { 'X-Api-Key': key, ...(body ? { 'Content-Type': 'text/csv' } : {}) },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, json: await response.json() };
};

test('a webhook added in Settings and an import that drops a site: the receiver, the Alerts page and the chart tell it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(`${server.url}/login`);
  await signIn(page, USERS.demo.email);
  await page.waitForURL(`${server.url}/`);

  // Settings → Webhooks: add one; the secret is shown once; a test event reaches the receiver, signed.
  await page.goto(`${server.url}/settings/webhooks`);
  await page.getByRole('button', { name: 'Add webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
  await dialog.getByLabel('Endpoint URL').fill(receiverUrl);
  await dialog.getByLabel('Description (optional)').fill('e2e receiver');
  await dialog.getByRole('button', { name: 'Add webhook' }).click();
  const secret = (await page.getByTestId('new-webhook-secret').textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await page.getByRole('button', { name: 'Done' }).click();
  const webhook = page.getByRole('list', { name: 'Webhooks' }).getByRole('listitem').filter({ hasText: receiverUrl });
  await expect(webhook).toContainText('Active');
  await expectNoViolations(page, 'Settings → Webhooks');
  await webhook.getByRole('button', { name: /^Send test event/ }).click();
  await expect.poll(() => verifiedTypes(secret)).toEqual(['webhook.test']);

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

  // The evaluation runs after the answer: the receiver hears of the import and of the drop within moments.
  await expect.poll(() => verifiedTypes(secret).sort()).toEqual(['data.updated', 'revenue.drop', 'webhook.test']);
  const drop = received.map((r) => JSON.parse(r.body)).find((e) => e.type === 'revenue.drop');
  expect(drop.data).toMatchObject({ kind: 'revenue.drop', siteId: site.siteId, day: yesterday });
  await expect
    .poll(async () => {
      const found = await api('GET', `/api/v1/alerts?Filter=kind==revenue.drop;siteId==${site.siteId}`, demoKey);
      return found.json.data.map((a: { day: string }) => a.day);
    })
    .toContain(yesterday);

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

  // The webhook's deliveries, as Settings lists them: all three delivered.
  await page.goto(`${server.url}/settings/webhooks`);
  await expect(webhook.getByTestId('webhook-delivery')).toHaveCount(3);
  await expect(webhook.getByTestId('webhook-delivery').filter({ hasText: 'delivered' })).toHaveCount(3);
});

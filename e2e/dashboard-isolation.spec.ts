import type { Page } from '@playwright/test';
import {
  apiGet,
  apiTotals,
  authFile,
  createKeyAs,
  DEMO_SITES,
  expect,
  keyRow,
  kpiValues,
  RIVAL_SITES,
  shownRange,
  test,
  uniqueLabel,
} from './support/dashboard';

/**
 * One publisher never sees another's data (issue 4, point 7): signed in as rival@example.com, the sites,
 * keys, overview and countries are rival's own (equal to rival's API figures, different from demo's), and
 * naming one of demo's sites in the URL is refused rather than shown.
 */

test.use({ storageState: authFile('rival') });

const RIVAL_LABEL = uniqueLabel('e2e isolation rival');
let demoKey: { key: string; label: string };
let rivalKey: string;

test.beforeAll(async ({ browser }) => {
  demoKey = await createKeyAs(browser, 'demo', { label: uniqueLabel('e2e isolation demo') });
  ({ key: rivalKey } = await createKeyAs(browser, 'rival', { label: RIVAL_LABEL }));
});

async function demoSiteIds(request: Parameters<typeof apiGet>[0]) {
  const { body } = await apiGet<{ siteId: string; name: string }[]>(request, demoKey.key, '/api/v1/sites');
  return body;
}

const byCountryRows = async (page: Page) =>
  page.getByTestId('by-country-row').evaluateAll((trs) =>
    trs.map((tr) =>
      // A figure's own text, without its change below it.
      [...tr.querySelectorAll('td')].map((td) => (td.querySelector('[data-value]') ?? td).textContent!.trim()),
    ),
  );

test('sites and keys are the account’s own', async ({ page, openAs }) => {
  await page.goto('/sites');
  await expect(page.getByRole('banner')).toContainText('Rival Interactive');
  const names = await page.getByTestId('site-row').locator('td:first-child a').allTextContents();
  expect(names.sort()).toEqual([...RIVAL_SITES].sort());
  const text = await page.locator('body').innerText();
  for (const site of DEMO_SITES) expect(text).not.toContain(site);

  await page.goto('/keys');
  await expect(keyRow(page, RIVAL_LABEL)).toBeVisible();
  await expect(keyRow(page, demoKey.label)).toHaveCount(0);
  expect(await page.locator('body').innerText()).not.toContain('e2e isolation demo');

  const demo = await openAs('demo');
  await demo.goto('/keys');
  await expect(keyRow(demo, demoKey.label)).toBeVisible();
  await expect(keyRow(demo, RIVAL_LABEL)).toHaveCount(0);

  // The filter bar offers only the account's sites.
  await page.goto('/');
  await page.getByRole('button', { name: 'Sites: All sites' }).click();
  const offered = await page
    .getByRole('group', { name: 'Sites' })
    .getByRole('checkbox')
    .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).labels![0].textContent!.trim()));
  expect(offered.sort()).toEqual([...RIVAL_SITES].sort());
});

test('overview and countries show the account’s own figures, not another publisher’s', async ({
  page,
  request,
  openAs,
}) => {
  await page.goto('/');
  const range = await shownRange(page);
  const rival = await apiTotals(request, rivalKey, range);
  const demo = await apiTotals(request, demoKey.key, range);
  expect(rival.totalRevenue).not.toBe(demo.totalRevenue);
  expect(await kpiValues(page)).toEqual(rival);

  const demoPage = await openAs('demo');
  await demoPage.goto('/');
  expect(await kpiValues(demoPage)).toEqual(demo);

  const url = '/countries?sortBy=country&sortDirection=asc&pageSize=100';
  await page.goto(url);
  await demoPage.goto(url);
  const rivalRows = await byCountryRows(page);
  const demoRows = await byCountryRows(demoPage);
  expect(rivalRows.length).toBeGreaterThan(0);
  // Same countries, other figures: no row of rival's table equals demo's.
  const demoByCountry = new Map(demoRows.map((r) => [r[0], r.join('|')]));
  for (const row of rivalRows) expect(demoByCountry.get(row[0])).not.toBe(row.join('|'));
  // And rival's page is rival's API.
  const api = await apiGet<{ data: { country: string; revenueAmount: number }[] }>(
    request,
    rivalKey,
    `/api/v1/reports/by-country?fromDate=${range.from}&toDate=${range.to}&sortBy=country&sortDirection=asc&pageSize=100`,
  );
  const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  expect(rivalRows.map((r) => r[1])).toEqual(api.body.data.map((r) => usd.format(r.revenueAmount)));
});

test('another publisher’s site in the URL is refused, not shown', async ({ page, request }) => {
  const [foreign] = await demoSiteIds(request);
  await page.goto(`/?sites=${foreign.siteId}`);
  await expect(page.getByRole('main').getByRole('alert')).toContainText('These filters can’t be shown');
  await expect(page.getByTestId('kpi-revenue')).toHaveCount(0);
  expect(await page.locator('body').innerText()).not.toContain(foreign.name);

  await page.goto(`/countries?sites=${foreign.siteId}`);
  await expect(page.getByRole('main').getByRole('alert')).toContainText('These filters can’t be shown');
  await expect(page.getByTestId('by-country-row')).toHaveCount(0);

  const csv = await page.request.get(`/export/countries?sites=${foreign.siteId}`);
  expect(csv.status()).toBe(403);
  expect(await csv.text()).not.toContain('Country,Code');
});

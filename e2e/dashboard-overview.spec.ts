import {
  addDays,
  apiGet,
  apiSites,
  apiTotals,
  authFile,
  createKeyAs,
  expect,
  kpiValues,
  renderCharts,
  shownRange,
  type SiteInfo,
  test,
  uniqueLabel,
  type Totals,
} from './support/dashboard';

/**
 * The overview (issue 4, point 2) shows the API's figures: the KPI cards' exact values (data-value) equal
 * GET /api/v1/reports/totals for the range and sites the filter bar shows, with all sites, one or two sites
 * chosen in the multi-select, a preset and a custom range; the state is the URL and survives a reload.
 */

test.use({ storageState: authFile('demo') });

let key: string;
let sites: SiteInfo[];

test.beforeAll(async ({ browser, playwright }) => {
  ({ key } = await createKeyAs(browser, 'demo', { label: uniqueLabel('e2e overview') }));
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  sites = await apiSites(request, key);
  await request.dispose();
  expect(sites.map((s) => s.name)).toContain('Merge Kingdom');
});

const siteId = (name: string) => sites.find((s) => s.name === name)!.siteId;

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const int = new Intl.NumberFormat('en-US');
const pct = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

test('the KPI cards equal the API totals for the default range, formatted, with the change against the previous period', async ({
  page,
  request,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  const range = await shownRange(page);
  // The default is the last 30 days up to today (UTC).
  expect(addDays(range.from, 29)).toBe(range.to);
  await expect(page.getByLabel('Date range')).toHaveValue('30d');

  const totals = await apiTotals(request, key, range);
  expect(totals.totalRevenue).toBeGreaterThan(0);
  expect(await kpiValues(page)).toEqual(totals);

  // Formatted: USD with cents and thousands separators, integers with separators, one-decimal percentages.
  await expect(page.getByTestId('kpi-revenue')).toHaveText(usd.format(totals.totalRevenue));
  await expect(page.getByTestId('kpi-impressions')).toHaveText(int.format(totals.totalImpressions));
  await expect(page.getByTestId('kpi-adRequests')).toHaveText(int.format(totals.totalRequests));
  await expect(page.getByTestId('kpi-cpm')).toHaveText(usd.format(totals.averageCpm));
  await expect(page.getByTestId('kpi-fillRate')).toHaveText(pct(totals.fillRate));
  expect(await page.getByTestId('kpi-revenue').textContent()).toMatch(/^\$\d{1,3}(,\d{3})+\.\d{2}$/);

  // The change against the 30 days before, named by their dates, like for like: today is still coming in,
  // so the 29 complete days against the first 29 of those 30, by the API's own figures.
  const complete = await apiTotals(request, key, { from: range.from, to: addDays(range.to, -1) });
  const previous = await apiTotals(request, key, { from: addDays(range.from, -30), to: addDays(range.from, -2) });
  const change = (complete.totalRevenue - previous.totalRevenue) / previous.totalRevenue;
  const revenueCard = page
    .locator('div')
    .filter({ has: page.getByTestId('kpi-revenue') })
    .last();
  const day = (d: string, year: boolean) =>
    new Date(`${d}T00:00:00Z`).toLocaleDateString('en-US', {
      timeZone: 'UTC',
      month: 'short',
      day: 'numeric',
      ...(year ? { year: 'numeric' } : {}),
    });
  const [from, to] = [addDays(range.from, -30), addDays(range.from, -1)];
  const compared = `${day(from, from.slice(0, 4) !== to.slice(0, 4))} – ${day(to, true)}`;
  await expect(revenueCard).toContainText(`${change >= 0 ? '+' : '−'}${pct(Math.abs(change))} vs ${compared}`);
  await expect(page.getByText(/Changes leave out today, which is still coming in/)).toBeVisible();

  // The daily chart covers every day of the range; the top countries are the API's best ten
  // (it loads when it comes near the viewport; its text summary is there from the start).
  await expect(page.getByRole('figure', { name: /^Revenue per day, chart: .* over 30 days$/ })).toBeVisible();
  await renderCharts(page);
  const byCountry = await apiGet<{ data: { country: string; revenueAmount: number }[]; meta: { totalRows: number } }>(
    request,
    key,
    `/api/v1/reports/by-country?fromDate=${range.from}&toDate=${range.to}&sortBy=revenueAmount&sortDirection=desc&pageSize=10`,
  );
  const top = page.getByRole('table', { name: 'Top countries by revenue' });
  await expect(top.locator('tbody tr')).toHaveCount(10);
  await expect(top.locator('tbody tr').first().locator('td').nth(1)).toHaveText(
    usd.format(byCountry.body.data[0].revenueAmount),
  );
  const all = page.getByRole('link', { name: `All ${byCountry.body.meta.totalRows} countries →` });
  await expect(all).toHaveAttribute('href', `/countries?from=${range.from}&to=${range.to}`);
});

test('one site, then two, chosen in the site multi-select: the URL carries them and the cards equal the API', async ({
  page,
  request,
}) => {
  await page.goto('/');
  const range = await shownRange(page);
  const trigger = page.getByRole('button', { name: 'Sites: All sites' });
  await trigger.click();
  await page.getByRole('button', { name: 'Only Merge Kingdom' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]sites=${siteId('Merge Kingdom')}(&|$)`));
  await expect(page.getByRole('button', { name: 'Sites: Merge Kingdom' })).toBeVisible();
  const url = new URL(page.url());
  expect(url.searchParams.get('from')).toBe(range.from);
  expect(url.searchParams.get('to')).toBe(range.to);

  const one = await apiTotals(request, key, { ...range, sites: [siteId('Merge Kingdom')] });
  await expect.poll(() => kpiValues(page)).toEqual(one);
  const everything = await apiTotals(request, key, range);
  expect(one.totalRevenue).toBeLessThan(everything.totalRevenue);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Sites: Merge Kingdom' })).toBeVisible();
  expect(await kpiValues(page)).toEqual(one);

  // A second site through its checkbox.
  await page.getByRole('button', { name: 'Sites: Merge Kingdom' }).click();
  await page.getByRole('checkbox', { name: 'Sky Hopper' }).check();
  await expect(page.getByRole('button', { name: 'Sites: 2 sites' })).toBeVisible();
  await expect(page).toHaveURL(/[?&]sites=[^&]+%2C|[?&]sites=[^&]+,/);
  const chosen = new URL(page.url()).searchParams.get('sites')!.split(',');
  expect(chosen.sort()).toEqual([siteId('Merge Kingdom'), siteId('Sky Hopper')].sort());
  const two = await apiTotals(request, key, { ...range, sites: chosen });
  await expect.poll(() => kpiValues(page)).toEqual(two);

  // Back to all sites: no `sites` parameter at all.
  await page.getByRole('button', { name: 'Select all sites' }).click();
  await expect(page.getByRole('button', { name: 'Sites: All sites' })).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.has('sites')).toBe(false);
  await expect.poll(() => kpiValues(page)).toEqual(everything);
});

test('the "Last 7 days" preset and a custom range are in the URL, equal the API and survive a reload', async ({
  page,
  request,
}) => {
  await page.goto('/');
  const today = (await shownRange(page)).to;
  await page.getByLabel('Date range').selectOption({ label: 'Last 7 days' });
  const week = { from: addDays(today, -6), to: today };
  await expect(page).toHaveURL(new RegExp(`[?&]from=${week.from}&to=${week.to}`));
  const weekTotals = await apiTotals(request, key, week);
  await expect.poll(() => kpiValues(page)).toEqual(weekTotals);
  await expect(page.getByRole('figure', { name: /over 7 days$/ })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Date range')).toHaveValue('7d');
  expect(await shownRange(page)).toEqual(week);
  expect(await kpiValues(page)).toEqual(weekTotals);

  // A custom start day: the preset select says "Custom".
  const custom = { from: addDays(today, -13), to: today };
  await page.getByLabel('From', { exact: true }).fill(custom.from);
  await page.getByLabel('From', { exact: true }).press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]from=${custom.from}&to=${custom.to}`));
  await expect(page.getByLabel('Date range')).toHaveValue('custom');
  await expect.poll(() => kpiValues(page)).toEqual(await apiTotals(request, key, custom));

  // The filters travel with the navigation to Countries and back.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Countries' }).click();
  await expect(page).toHaveURL(new RegExp(`/countries\\?from=${custom.from}&to=${custom.to}$`));
  expect(await shownRange(page)).toEqual(custom);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
  await expect(page).toHaveURL(new RegExp(`/\\?from=${custom.from}&to=${custom.to}$`));
});

test('a range without data shows zeros and an empty state, and a bad range explains itself', async ({ page }) => {
  // Ten years ago: the demo data covers one year.
  await page.goto('/?from=2016-01-01&to=2016-01-31');
  const zero: Totals = { totalRevenue: 0, totalImpressions: 0, totalRequests: 0, averageCpm: 0, fillRate: 0 };
  expect(await kpiValues(page)).toEqual(zero);
  await expect(page.getByTestId('kpi-revenue')).toHaveText('$0.00');
  await expect(page.getByText('No revenue in this period for the selected sites.')).toBeVisible();
  await expect(page.getByText('No countries to show for this period.')).toBeVisible();

  await page.goto('/?from=2026-02-30');
  await expect(page.getByRole('main').getByRole('alert')).toContainText('These filters can’t be shown');
  await page.getByRole('link', { name: 'Reset filters' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('kpi-revenue')).toBeVisible();
});

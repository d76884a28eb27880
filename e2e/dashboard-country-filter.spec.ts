import { apiGet, apiTotals, authFile, createKeyAs, expect, kpiValues, test, uniqueLabel } from './support/dashboard';

/**
 * Countries as a way into the dashboard (issue 10, point 5): the table opens on the highest revenue first with
 * its sort shown, every metric has its change against the comparison, and a country's name narrows the whole
 * dashboard to that country (a removable chip in the filter bar) with the range kept, by the API's figures.
 */
test.use({ storageState: authFile('demo') });

interface CountryFigures {
  country: string;
  revenueAmount: number;
  impressions: number;
  adRequests: number;
  cpm: number;
  fillRate: number;
}

let key: string;
test.beforeAll(async ({ browser }) => {
  ({ key } = await createKeyAs(browser, 'demo', { label: uniqueLabel('e2e country filter') }));
});

async function byCountry(request: Parameters<typeof apiGet>[0], from: string, to: string) {
  const params = new URLSearchParams({ fromDate: from, toDate: to, sortBy: 'revenueAmount', sortDirection: 'desc' });
  const { status, body } = await apiGet<{ data: CountryFigures[] }>(
    request,
    key,
    `/api/v1/reports/by-country?${params}&pageSize=1000`,
  );
  expect(status).toBe(200);
  return body.data;
}

const pct = (ratio: number) => `${(Math.abs(ratio) * 100).toFixed(1)}%`;
const changeText = (now: number, before: number) => {
  const change = (now - before) / before;
  return Math.abs(change) < 0.0005 ? 'No change' : `${change > 0 ? '+' : '−'}${pct(change)}`;
};

test('opens on the highest revenue first, and shows each metric’s change against the previous month', async ({
  page,
  request,
}) => {
  await page.goto('/countries?from=2026-03-01&to=2026-03-31');
  await expect(page.getByRole('columnheader', { name: 'Revenue' })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByText('change vs Feb 1 – Feb 28, 2026')).toBeVisible();
  const [march, february] = await Promise.all([
    byCountry(request, '2026-03-01', '2026-03-31'),
    byCountry(request, '2026-02-01', '2026-02-28'),
  ]);
  const rows = page.getByTestId('by-country-row');
  await expect(rows.first().locator('td:first-child a > span')).toHaveText(march[0].country);
  for (const [i, now] of march.slice(0, 3).entries()) {
    const before = february.find((r) => r.country === now.country)!;
    const cells = rows.nth(i).locator('td');
    await expect(cells.nth(1)).toContainText(changeText(now.revenueAmount, before.revenueAmount));
    await expect(cells.nth(2)).toContainText(changeText(now.impressions, before.impressions));
    await expect(cells.nth(3)).toContainText(changeText(now.adRequests, before.adRequests));
    await expect(cells.nth(4)).toContainText(changeText(now.cpm, before.cpm));
    await expect(cells.nth(5)).toContainText(changeText(now.fillRate, before.fillRate));
  }
  // Without a comparison there is no change to show.
  await page.goto('/countries?from=2026-03-01&to=2026-03-31&compare=none');
  await expect(rows.first().locator('td').nth(1)).not.toContainText('%');
});

test('a country’s name narrows the whole dashboard to it, keeping the range; its chip takes it away', async ({
  page,
  request,
}) => {
  const [from, to] = ['2026-03-01', '2026-03-31'];
  await page.goto(`/countries?from=${from}&to=${to}`);
  const second = (await byCountry(request, from, to))[1];
  const link = page.getByTestId('by-country-row').nth(1).locator('td:first-child a');
  await link.click();
  await expect(page).toHaveURL(`/?from=${from}&to=${to}&country=${second.country}`);
  const name = new Intl.DisplayNames(['en'], { type: 'region' }).of(second.country)!;
  await expect(page.getByText(`Country: ${name}`)).toBeVisible();
  const cards = await kpiValues(page);
  expect(cards.totalRevenue).toBeCloseTo(second.revenueAmount, 6);
  expect(cards.totalImpressions).toBe(second.impressions);
  expect(cards.totalRequests).toBe(second.adRequests);

  // The other pages keep the country: Sites shows each site's revenue there, adding up to the same figure.
  await page.getByRole('navigation').getByRole('link', { name: 'Sites' }).click();
  await expect(page).toHaveURL(new RegExp(`country=${second.country}`));
  // The URL changes as the navigation starts; the Overview (with the same chip) is shown until Sites arrives.
  await expect(page.getByRole('heading', { name: 'Sites', level: 1 })).toBeVisible();
  await expect(page.getByText(`Country: ${name}`)).toBeVisible();
  await expect(page.getByTestId('site-row').first()).toBeVisible();
  const siteRevenue = await page
    .getByTestId('site-row')
    .locator('[data-value]')
    .evaluateAll((cells) => cells.reduce((sum, c) => sum + Math.round(Number(c.getAttribute('data-value')) * 1e6), 0));
  expect(siteRevenue).toBe(Math.round(second.revenueAmount * 1e6));

  await page.getByRole('button', { name: `Remove the country filter (${name})` }).click();
  await expect(page).not.toHaveURL(/country=/);
  await page.getByRole('navigation').getByRole('link', { name: 'Overview' }).click();
  await expect(page).toHaveURL(`/?from=${from}&to=${to}`);
  expect((await kpiValues(page)).totalRevenue).toBeCloseTo(
    (await apiTotals(request, key, { from, to })).totalRevenue,
    6,
  );
});

test('a country that is not one says so beside a filter bar that still works', async ({ page }) => {
  await page.goto('/?country=QQ');
  await expect(page.getByRole('main').getByRole('alert')).toContainText(
    "'QQ' is not an ISO 3166-1 alpha-2 country code",
  );
  await page.getByLabel('Date range').selectOption({ label: 'Last 7 days' });
  await expect(page.getByTestId('kpi-revenue')).toBeVisible();
});

test('filters are built as chips that write the API’s grammar, and come off one by one', async ({ page, request }) => {
  const [from, to] = ['2026-03-01', '2026-03-31'];
  await page.goto(`/countries?from=${from}&to=${to}`);
  const addFilter = async (field: string, op: string, value: string, select = false) => {
    await page.getByRole('button', { name: 'Add filter' }).click();
    const form = page.getByRole('dialog', { name: 'Add a filter' });
    await form.getByLabel('Field').selectOption({ label: field });
    await form.getByLabel('Operator').selectOption({ label: op });
    if (select) await form.getByLabel('Country').selectOption({ label: value });
    else await form.getByLabel(/^Value/).fill(value);
    await form.getByRole('button', { name: 'Add filter' }).click();
  };
  await addFilter('eCPM', '>', '8');
  await expect(page).toHaveURL(/[?&]Filter=cpm%3E8(&|$)/);
  await addFilter('Fill rate', '≥', '85');
  await expect(page).toHaveURL(/[?&]Filter=cpm%3E8%3BfillRate%3E%3D0.85(&|$)/);
  await addFilter('Country', 'is not', 'United States', true);
  await expect(page).toHaveURL(/[?&]Filter=cpm%3E8%3BfillRate%3E%3D0.85%3Bcountry%21%3DUS(&|$)/);
  const chips = page.getByRole('group', { name: 'Filters' });
  await expect(chips).toContainText('eCPM > $8');
  await expect(chips).toContainText('Fill rate ≥ 85%');
  await expect(chips).toContainText('Country is not United States');
  const { body } = await apiGet<{ meta: { totalRows: number } }>(
    request,
    key,
    `/api/v1/reports/by-country?fromDate=${from}&toDate=${to}&Filter=${encodeURIComponent('cpm>8;fillRate>=0.85;country!=US')}`,
  );
  expect(body.meta.totalRows).toBeGreaterThan(0);
  await expect(page.getByTestId('by-country-row')).toHaveCount(Math.min(20, body.meta.totalRows));
  await expect(page.locator('td:first-child a > span').filter({ hasText: /^US$/ })).toHaveCount(0);

  await chips.getByRole('button', { name: 'Remove filter eCPM > $8' }).click();
  await expect(page).toHaveURL(/[?&]Filter=fillRate%3E%3D0.85%3Bcountry%21%3DUS(&|$)/);
  // The raw expression is still there, and says the same.
  await page.getByText('Edit as expression').click();
  await expect(page.getByLabel('Filter', { exact: true })).toHaveValue('fillRate>=0.85;country!=US');

  // What is not a number is said beside the field, and nothing changes.
  await page.getByRole('button', { name: 'Add filter' }).click();
  const form = page.getByRole('dialog', { name: 'Add a filter' });
  await form.getByLabel(/^Value/).fill('lots');
  await form.getByRole('button', { name: 'Add filter' }).click();
  await expect(form.getByRole('alert')).toHaveText('Enter a number for Revenue');
  await expect(page).toHaveURL(/[?&]Filter=fillRate%3E%3D0.85%3Bcountry%21%3DUS(&|$)/);
});

test('a world map shades each country by its revenue, from map data served by the portal itself', async ({
  page,
  request,
}) => {
  const foreign: string[] = [];
  const own = new URL(test.info().project.use.baseURL!).origin;
  page.on('request', (r) => {
    if (new URL(r.url()).origin !== own) foreign.push(r.url());
  });
  const [from, to] = ['2026-03-01', '2026-03-31'];
  await page.goto(`/countries?from=${from}&to=${to}`);
  const top = (await byCountry(request, from, to))[0];
  const map = page.getByRole('img', { name: /^World map of revenue by country; highest: / });
  await expect(map).toBeVisible();
  // The shapes are drawn in the browser once the map's box nears the viewport.
  await expect(map.locator('path').nth(150)).toBeAttached();
  const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  const name = new Intl.DisplayNames(['en'], { type: 'region' }).of(top.country)!;
  await expect(map.locator(`path[data-country="${top.country}"] title`)).toHaveText(
    `${name}: ${usd.format(top.revenueAmount)}`,
  );
  await expect(map).toHaveAccessibleName(new RegExp(`highest: ${name} `));
  expect(foreign).toEqual([]);
});

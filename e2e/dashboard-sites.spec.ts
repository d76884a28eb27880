import {
  apiSites,
  apiTotals,
  authFile,
  createKeyAs,
  expect,
  shownRange,
  type SiteInfo,
  test,
  uniqueLabel,
  waitForHydration,
} from './support/dashboard';

/**
 * Which site earns most (issue 10, point 1): the Sites page shows each site's revenue for the chosen range,
 * equal to the API's totals for that site, sorted by revenue and sortable by any column (aria-sort, in the
 * URL); a site's name filters the whole dashboard to it, keeping the range; the overview lists the top sites.
 */
test.use({ storageState: authFile('demo') });

let key: string;
let sites: SiteInfo[];

test.beforeAll(async ({ browser, playwright }) => {
  ({ key } = await createKeyAs(browser, 'demo', { label: uniqueLabel('e2e sites') }));
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  sites = await apiSites(request, key);
  await request.dispose();
});

const rowsOf = (page: import('@playwright/test').Page) =>
  page.getByTestId('site-row').evaluateAll((trs) =>
    trs.map((tr) => ({
      name: tr.querySelector('td a')!.textContent!.trim(),
      revenue: Number(tr.querySelector('[data-value]')!.getAttribute('data-value')),
    })),
  );

test('every site’s revenue for the range equals the API, highest first, with change and trend', async ({
  page,
  request,
}) => {
  await page.goto('/sites?from=2026-01-01&to=2026-03-31');
  await expect(page.getByRole('heading', { name: 'Sites', level: 1 })).toBeVisible();
  const range = await shownRange(page);
  expect(range).toEqual({ from: '2026-01-01', to: '2026-03-31' });
  const rows = await rowsOf(page);
  expect(rows.map((r) => r.name).sort()).toEqual(sites.map((s) => s.name).sort());
  for (const row of rows) {
    const siteId = sites.find((s) => s.name === row.name)!.siteId;
    const totals = await apiTotals(request, key, { ...range, sites: [siteId] });
    expect(row.revenue, row.name).toBe(totals.totalRevenue);
  }
  expect(rows.map((r) => r.revenue)).toEqual([...rows.map((r) => r.revenue)].sort((a, b) => b - a));
  const revenueHeader = page.getByRole('columnheader', { name: 'Revenue' });
  await expect(revenueHeader).toHaveAttribute('aria-sort', 'descending');
  const first = page.getByTestId('site-row').first();
  await expect(first.getByRole('img', { name: /^Daily revenue of .+: from \$/ })).toBeVisible();
  await expect(first.locator('td').nth(2)).toHaveText(/^(No change|[+−]\d+\.\d%|New)$/);
});

test('any column sorts, in the URL, and a reload keeps the order', async ({ page }) => {
  await page.goto('/sites');
  await waitForHydration(page);
  await page.getByRole('columnheader', { name: 'Revenue' }).getByRole('button').click();
  await expect(page.getByRole('columnheader', { name: 'Revenue' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/sortBy=revenue&sortDirection=asc/);
  const ascending = (await rowsOf(page)).map((r) => r.revenue);
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));

  await page.getByRole('columnheader', { name: 'Site' }).getByRole('button').click();
  await expect(page).toHaveURL(/sortBy=name/);
  await page.reload();
  await expect(page.getByRole('columnheader', { name: 'Site' })).not.toHaveAttribute('aria-sort', 'none');
  const names = (await rowsOf(page)).map((r) => r.name);
  const sorted = [...names].sort((a, b) => a.localeCompare(b));
  expect([sorted, [...sorted].reverse()]).toContainEqual(names);
});

test('a site’s name filters the dashboard to it and keeps the range', async ({ page }) => {
  await page.goto('/sites?from=2026-02-01&to=2026-02-28');
  const merge = sites.find((s) => s.name === 'Merge Kingdom')!;
  await page.getByTestId('site-row').getByRole('link', { name: 'Merge Kingdom', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  const url = new URL(page.url());
  expect(url.pathname).toBe('/');
  expect(Object.fromEntries(url.searchParams)).toEqual({ from: '2026-02-01', to: '2026-02-28', sites: merge.siteId });
  await expect(page.getByRole('button', { name: /Merge Kingdom/ })).toBeVisible();
});

test('the overview lists the top sites by revenue beside the top countries, linking to Sites', async ({
  page,
  request,
}) => {
  await page.goto('/?from=2026-01-01&to=2026-01-31');
  const top = page.getByRole('table', { name: 'Top sites by revenue' });
  await expect(top).toBeVisible();
  const shown = await top.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      name: tr.querySelector('a')!.textContent!.trim(),
      revenue: Number(tr.querySelector('[data-value]')!.getAttribute('data-value')),
    })),
  );
  const expected = await Promise.all(
    sites.map(async (s) => ({
      name: s.name,
      revenue: (await apiTotals(request, key, { from: '2026-01-01', to: '2026-01-31', sites: [s.siteId] }))
        .totalRevenue,
    })),
  );
  expected.sort((a, b) => b.revenue - a.revenue);
  expect(shown).toEqual(expected.slice(0, 5));
  await page.getByRole('link', { name: /^All \d+ sites →$/ }).click();
  await expect(page).toHaveURL(/\/sites\?from=2026-01-01&to=2026-01-31$/);
});

test('a page past the last says so instead of claiming the account has no sites', async ({ page }) => {
  await page.goto('/sites?page=9');
  await expect(page.getByText('Page 9 has no sites.')).toBeVisible();
  await expect(page.getByText('No sites on this account yet.')).toHaveCount(0);
});

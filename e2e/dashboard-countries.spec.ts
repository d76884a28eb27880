import type { Page } from '@playwright/test';
import { apiGet, authFile, createKeyAs, expect, shownRange, test, uniqueLabel } from './support/dashboard';

/**
 * The Countries table (issue 4, point 3): server-side paging, sorting by a header click, Search and Filter,
 * all in the URL with the by-country endpoint's own parameters, checked against GET
 * /api/v1/reports/by-country for the same query; and the CSV download of the whole filtered view.
 */

test.use({ storageState: authFile('demo') });

interface ByCountry {
  data: {
    country: string | null;
    revenueAmount: number;
    cpm: number;
    impressions: number;
    adRequests: number;
    fillRate: number;
  }[];
  meta: {
    page: number;
    pageSize: number;
    totalRows: number;
    totalPages: number;
    sortBy: string | null;
    sortDirection: string;
  };
}

let key: string;

test.beforeAll(async ({ browser }) => {
  ({ key } = await createKeyAs(browser, 'demo', { label: uniqueLabel('e2e countries') }));
});

const rows = (page: Page) => page.getByTestId('by-country-row');
const range = (page: Page) => page.getByRole('navigation', { name: 'Pages' }).locator('p').first();

/** The country codes of the rows shown, in order ("Unknown" for rows without a country). */
async function shownCodes(page: Page): Promise<(string | null)[]> {
  return rows(page).evaluateAll((trs) =>
    trs.map((tr) => {
      const code = tr.querySelector('td:first-child a > span');
      return code ? code.textContent!.trim() : null;
    }),
  );
}

/** The columns: the country, then the five metrics in the cards' order. */
const COLUMN = { revenue: 1, impressions: 2, adRequests: 3, cpm: 4, fillRate: 5 } as const;

/** The exact values of one column (their data-value), in row order. */
async function columnValues(page: Page, column: number): Promise<number[]> {
  const values = await rows(page).evaluateAll(
    (trs, i) => trs.map((tr) => tr.querySelectorAll('td')[i].querySelector('[data-value]')!.getAttribute('data-value')),
    column,
  );
  return values.map(Number);
}

/** The API's order for the dashboard's default: the highest revenue first. */
const BY_REVENUE = { sortBy: 'revenueAmount', sortDirection: 'desc' };

async function byCountry(request: Parameters<typeof apiGet>[0], page: Page, extra: Record<string, string>) {
  const { from, to } = await shownRange(page);
  const params = new URLSearchParams({ fromDate: from, toDate: to, ...extra });
  const { status, body } = await apiGet<ByCountry>(request, key, `/api/v1/reports/by-country?${params}`);
  expect(status).toBe(200);
  return body;
}

test('paging is server-side: Next shows the following rows and the range of rows', async ({ page, request }) => {
  await page.goto('/countries');
  await expect(page.getByRole('heading', { name: 'Countries', level: 1 })).toBeVisible();
  const all = await byCountry(request, page, { pageSize: '20', ...BY_REVENUE });
  const total = all.meta.totalRows;
  expect(total).toBeGreaterThan(40);
  await expect(range(page)).toHaveText(`1–20 of ${total}`);
  await expect(rows(page)).toHaveCount(20);
  const first = await shownCodes(page);
  expect(first).toEqual(all.data.map((r) => r.country));
  await expect(page.getByRole('link', { name: 'Previous' })).toHaveAttribute('aria-disabled', 'true');

  await page.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await expect(range(page)).toHaveText(`21–40 of ${total}`);
  await expect(page.getByText(`Page 2 of ${all.meta.totalPages}`)).toBeVisible();
  const second = await shownCodes(page);
  expect(second).toHaveLength(20);
  expect(second.filter((c) => first.includes(c))).toEqual([]);
  expect(second).toEqual(
    (await byCountry(request, page, { pageSize: '20', page: '2', ...BY_REVENUE })).data.map((r) => r.country),
  );

  // The last page is partial and has no Next.
  await page.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]page=3(&|$)/);
  await expect(range(page)).toHaveText(`41–${total} of ${total}`);
  await expect(rows(page)).toHaveCount(total - 40);
  await expect(page.getByRole('link', { name: 'Next' })).toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('link', { name: 'Previous' }).click();
  await expect(range(page)).toHaveText(`21–40 of ${total}`);
});

test('a link that spells it Page=2 pages on from there: Previous goes to page 1, with one page parameter', async ({
  page,
}) => {
  await page.goto('/countries?Page=2&pageSize=20');
  await expect(page.getByText(/^Page 2 of /)).toBeVisible();
  await page.getByRole('link', { name: 'Previous' }).click();
  await expect(page).toHaveURL(/[?&]page=1(&|$)/);
  expect(new URL(page.url()).search).not.toMatch(/Page=/);
  await expect(page.getByText(/^Page 1 of /)).toBeVisible();
  await expect(page.getByText('These filters can’t be shown')).toHaveCount(0);
});

test('the page-size selector changes pageSize in the URL and starts on page 1', async ({ page, request }) => {
  await page.goto('/countries?page=2');
  const pages = page.getByRole('navigation', { name: 'Pages' });
  await expect(pages.getByRole('link', { name: '20', exact: true })).toHaveAttribute('aria-current', 'true');
  await pages.getByRole('link', { name: '50', exact: true }).click();
  await expect(page).toHaveURL(/[?&]pageSize=50(&|$)/);
  await expect(page).toHaveURL(/[?&]page=1(&|$)/);
  const total = (await byCountry(request, page, {})).meta.totalRows;
  await expect(rows(page)).toHaveCount(Math.min(50, total));
  await expect(range(page)).toHaveText(`1–${Math.min(50, total)} of ${total}`);
  await expect(pages.getByRole('link', { name: '50', exact: true })).toHaveAttribute('aria-current', 'true');
});

test('clicking a header sorts on the server: sortBy and sortDirection in the URL, aria-sort, the API order', async ({
  page,
  request,
}) => {
  await page.goto('/countries?page=2');
  const ecpm = page.getByRole('columnheader', { name: 'eCPM' });
  await expect(ecpm).toHaveAttribute('aria-sort', 'none');
  await expect(page.getByRole('columnheader', { name: 'Revenue' })).toHaveAttribute('aria-sort', 'descending');

  await ecpm.getByRole('button').click();
  await expect(page).toHaveURL(/[?&]sortBy=cpm&sortDirection=desc/);
  // A new order starts on the first page.
  expect(new URL(page.url()).searchParams.has('page')).toBe(false);
  await expect(ecpm).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('columnheader', { name: 'Revenue' })).toHaveAttribute('aria-sort', 'none');
  await expect
    .poll(() => columnValues(page, COLUMN.cpm))
    .toEqual([...(await columnValues(page, COLUMN.cpm))].sort((a, b) => b - a));
  const desc = await byCountry(request, page, { sortBy: 'cpm', sortDirection: 'desc', pageSize: '20' });
  expect(await shownCodes(page)).toEqual(desc.data.map((r) => r.country));

  await ecpm.getByRole('button').click();
  await expect(page).toHaveURL(/[?&]sortBy=cpm&sortDirection=asc/);
  await expect(ecpm).toHaveAttribute('aria-sort', 'ascending');
  const asc = await byCountry(request, page, { sortBy: 'cpm', sortDirection: 'asc', pageSize: '20' });
  await expect.poll(() => shownCodes(page)).toEqual(asc.data.map((r) => r.country));
  const values = await columnValues(page, COLUMN.cpm);
  expect(values).toEqual([...values].sort((a, b) => a - b));

  // Another column; a reload keeps the order.
  await page.getByRole('columnheader', { name: 'Impressions' }).getByRole('button').click();
  await expect(page).toHaveURL(/[?&]sortBy=impressions&sortDirection=desc/);
  await expect(page.getByRole('columnheader', { name: 'Impressions' })).toHaveAttribute('aria-sort', 'descending');
  await expect(ecpm).toHaveAttribute('aria-sort', 'none');
  await page.reload();
  await expect(page.getByRole('columnheader', { name: 'Impressions' })).toHaveAttribute('aria-sort', 'descending');
  const impressions = await columnValues(page, COLUMN.impressions);
  expect(impressions).toEqual([...impressions].sort((a, b) => b - a));
  expect(await shownCodes(page)).toEqual(
    (await byCountry(request, page, { sortBy: 'impressions', sortDirection: 'desc', pageSize: '20' })).data.map(
      (r) => r.country,
    ),
  );
});

test('Search and Filter go into the URL in the API grammar and narrow the rows like the API', async ({
  page,
  request,
}) => {
  await page.goto('/countries?page=2');
  await page.getByLabel('Search countries').fill('united');
  await page.getByLabel('Search countries').press('Enter');
  await expect(page).toHaveURL(/[?&]Search=united(&|$)/);
  expect(new URL(page.url()).searchParams.has('page')).toBe(false);
  const united = await byCountry(request, page, { Search: 'united' });
  expect(united.meta.totalRows).toBeGreaterThanOrEqual(2);
  await expect(rows(page)).toHaveCount(united.meta.totalRows);
  for (const text of await rows(page).locator('td:first-child').allTextContents()) expect(text).toContain('United');

  await page.getByLabel('Search countries').fill('');
  await page.getByLabel('Search countries').press('Enter');
  await expect(page).not.toHaveURL(/Search=/);
  await page.getByText('Edit as expression').click();
  await page.getByLabel('Filter', { exact: true }).fill('cpm>8;fillRate>=0.85');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/[?&]Filter=cpm%3E8%3BfillRate%3E%3D0.85(&|$)/);
  expect(new URL(page.url()).searchParams.has('Search')).toBe(false);
  const filtered = await byCountry(request, page, { Filter: 'cpm>8;fillRate>=0.85' });
  expect(filtered.meta.totalRows).toBeGreaterThan(0);
  await expect(rows(page)).toHaveCount(Math.min(20, filtered.meta.totalRows));
  for (const cpm of await columnValues(page, COLUMN.cpm)) expect(cpm).toBeGreaterThan(8);
  for (const fill of await columnValues(page, COLUMN.fillRate)) expect(fill).toBeGreaterThanOrEqual(0.85);
  await page.reload();
  await expect(page.getByLabel('Filter', { exact: true })).toHaveValue('cpm>8;fillRate>=0.85');

  // Nothing matches: an empty state, not an empty table.
  await page.goto('/countries?Search=zzzz-no-such-country');
  await expect(page.getByText('No countries match these filters.')).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);

  // A filter the grammar rejects explains itself (the API's message) instead of failing.
  await page.goto('/countries?Filter=nosuchfield>1');
  await expect(page.getByRole('main').getByRole('alert')).toContainText('These filters can’t be shown');
});

test('the By country download gives every row of the filtered, sorted view, named and rounded, with a total', async ({
  page,
  request,
}) => {
  await page.goto('/countries?Filter=cpm%3E2&sortBy=revenueAmount&sortDirection=desc&pageSize=20&page=2');
  const { from, to } = await shownRange(page);
  const expected = await byCountry(request, page, {
    Filter: 'cpm>2',
    sortBy: 'revenueAmount',
    sortDirection: 'desc',
    pageSize: '1000',
  });
  expect(expected.meta.totalRows, 'the filtered view spans more than one page').toBeGreaterThan(20);

  await page.getByRole('button', { name: 'Download' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /^By country \(CSV\)/ }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`revenue-by-country_${from}_${to}.csv`);
  const csv = await new Promise<string>(async (resolve, reject) => {
    const stream = await download.createReadStream();
    let text = '';
    stream.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    stream.on('end', () => resolve(text)).on('error', reject);
  });
  const lines = csv.trim().split('\n');
  expect(lines[0]).toBe('Country,Code,Revenue (USD),Impressions,Ad requests,eCPM (USD),Fill rate (%)');
  expect(lines).toHaveLength(expected.meta.totalRows + 2);
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const cents = (usd: number) => Math.round(Math.round(usd * 1e6) / 1e4);
  const money = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
  expect(lines.slice(1, -1)).toEqual(
    expected.data.map((r) =>
      [
        names.of(r.country!)!.includes(',') ? `"${names.of(r.country!)}"` : names.of(r.country!),
        r.country,
        money(cents(r.revenueAmount)),
        r.impressions,
        r.adRequests,
        r.cpm.toFixed(2),
        (r.fillRate * 100).toFixed(2),
      ].join(','),
    ),
  );
  // The total is summed from the rows' exact figures, then rounded once.
  const totalMicros = expected.data.reduce((sum, r) => sum + Math.round(r.revenueAmount * 1e6), 0);
  expect(lines.at(-1)!.split(',').slice(0, 3)).toEqual(['Total', '', money(Math.round(totalMicros / 1e4))]);
});

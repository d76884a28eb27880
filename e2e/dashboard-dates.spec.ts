import { addDays, authFile, expect, shownRange, test, waitForHydration } from './support/dashboard';

/**
 * Choosing dates (issue 10, points 3 and 4): the presets, a day field that changes the page only when the
 * user is done with it (Enter or leaving the field) and says inline what is wrong, one history entry per
 * change, and a URL that cannot be shown explained beside controls that still work.
 */
test.use({ storageState: authFile('demo') });

test('typing a day navigates once, on Enter, with one history entry', async ({ page }) => {
  await page.goto('/?from=2026-02-01&to=2026-02-28');
  await waitForHydration(page);
  const from = page.getByLabel('From');
  await from.focus();
  // Month, day, year as a keyboard user types them; the year passes through 0002, 0020, 0202 on the way.
  await from.pressSequentially('02102026', { delay: 30 });
  await expect(from).toHaveValue('2026-02-10');
  expect(new URL(page.url()).searchParams.get('from')).toBe('2026-02-01');
  await from.press('Enter');
  await expect(page).toHaveURL(/from=2026-02-10/);
  expect(await shownRange(page)).toEqual({ from: '2026-02-10', to: '2026-02-28' });
  await page.goBack();
  await expect(page).toHaveURL(/from=2026-02-01/);
});

test('a day that cannot be used is explained beside its field, and the page stays as it was', async ({ page }) => {
  await page.goto('/?from=2026-02-01&to=2026-02-28');
  await waitForHydration(page);
  const from = page.getByLabel('From');
  await from.fill('2026-03-05');
  await from.press('Enter');
  await expect(from).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').filter({ hasText: 'Must be on or before To' })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('from')).toBe('2026-02-01');
  await from.press('Escape');
  await expect(from).toHaveValue('2026-02-01');
  await expect(from).not.toHaveAttribute('aria-invalid');
});

test('a URL that cannot be shown says why beside the filter bar, whose presets repair it', async ({ page }) => {
  await page.goto('/?from=0009-10-25');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'These filters can’t be shown' })).toBeVisible();
  await page.getByLabel('Date range').selectOption({ label: 'Last 7 days' });
  await expect(page).toHaveURL(/from=\d{4}-\d{2}-\d{2}&to=/);
  await expect(page.getByRole('alert').filter({ hasText: 'These filters can’t be shown' })).toHaveCount(0);
  await expect(page.getByTestId('kpi-revenue')).toBeVisible();
});

test('Today, Yesterday and Last 12 months are presets', async ({ page }) => {
  await page.goto('/');
  const today = (await shownRange(page)).to;
  await page.getByLabel('Date range').selectOption({ label: 'Yesterday' });
  await expect(page).toHaveURL(new RegExp(`from=${addDays(today, -1)}&to=${addDays(today, -1)}`));
  await page.getByLabel('Date range').selectOption({ label: 'Today' });
  await expect(page).toHaveURL(new RegExp(`from=${today}&to=${today}`));
  await page.getByLabel('Date range').selectOption({ label: 'Last 12 months' });
  await expect(page.getByLabel('Date range')).toHaveValue('12m');
  expect((await shownRange(page)).to).toBe(today);
});

test.describe('comparison', () => {
  const cardOf = (page: import('@playwright/test').Page) =>
    page
      .locator('div')
      .filter({ has: page.getByTestId('kpi-revenue') })
      .last();

  test('a whole month is compared with the whole month before, named by its dates', async ({ page }) => {
    await page.goto('/?from=2026-03-01&to=2026-03-31');
    await expect(cardOf(page)).toContainText('vs Feb 1 – Feb 28, 2026');
    await expect(page.getByText(/Changes leave out today/)).toHaveCount(0);
  });

  test('same period last year, or none, chosen in the filter bar and kept in the URL', async ({ page }) => {
    await page.goto('/?from=2026-03-01&to=2026-03-31');
    await waitForHydration(page);
    await page.getByLabel('Compare with').selectOption({ label: 'Same period last year' });
    await expect(page).toHaveURL(/compare=year/);
    // The demo data begins in November 2025: nothing to compare with, and the card says for which dates.
    await expect(cardOf(page)).toContainText('No data for Mar 1 – Mar 31, 2025');
    // The chart's legend names the compared dates too.
    await expect(page.getByRole('figure', { name: /Revenue per day, chart/ })).toContainText('Mar 1 – Mar 31, 2025');
    await page.getByLabel('Compare with').selectOption({ label: 'No comparison' });
    await expect(page).toHaveURL(/compare=none/);
    await expect(cardOf(page)).not.toContainText(/ vs |No data for/);
    await page.reload();
    await expect(page.getByLabel('Compare with')).toHaveValue('none');
  });
});

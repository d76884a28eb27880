import { authFile, expect, test } from './support/dashboard';

/**
 * A URL whose range would begin before year 1000 once the default range is applied (issue 18, point 5):
 * `/sites?to=1000-01-01` was a 500. Each page shows its own message instead, and each download answers 400
 * with the reason as text.
 */
test.use({ storageState: authFile('demo') });

const TOO_EARLY = 'would begin on 0999-12-03, before 1000-01-01';

for (const path of ['/', '/sites', '/countries']) {
  test(`${path}?to=1000-01-01 explains itself beside the filter bar`, async ({ page }) => {
    const response = await page.goto(`${path}?to=1000-01-01`);
    expect(response?.status()).toBe(200);
    const alert = page.getByRole('alert').filter({ hasText: 'These filters can’t be shown' });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(TOO_EARLY);
  });
}

test('the earliest days are shown, compared with nothing before them', async ({ page }) => {
  await page.goto('/sites?from=1000-01-01&to=1000-01-10');
  await expect(page.getByRole('link', { name: 'Sky Hopper' })).toBeVisible();
  await expect(page.getByText('Jan 1, 1000 – Jan 10, 1000 · UTC')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'These filters can’t be shown' })).toHaveCount(0);
});

for (const report of ['daily', 'sites', 'countries', 'rows']) {
  test(`/export/${report}?to=1000-01-01 is a 400 saying why`, async ({ page }) => {
    const response = await page.request.get(`/export/${report}?to=1000-01-01`);
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain(TOO_EARLY);
  });
}

import { authFile, expect, test } from './support/dashboard';

/** Issue 10, point 10: an address without a page is the portal's own 404, with its pages to go on to. */
test.use({ storageState: authFile('demo') });

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the 404 page is the portal's, with a way on (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    const response = await page.goto('/no-such-page');
    expect(response!.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
    const links = page.getByRole('navigation', { name: 'Portal pages' }).getByRole('link');
    await expect(links).toHaveText(['Overview', 'Sites', 'Countries', 'API keys', 'API docs']);
    // In the theme's own colours, not a black page in dark mode and a white one in light mode.
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe(colorScheme === 'dark' ? 'rgb(0, 0, 0)' : 'rgba(0, 0, 0, 0)');
    await links.filter({ hasText: 'Sites' }).click();
    await expect(page.getByRole('heading', { name: 'Sites', level: 1 })).toBeVisible();
  });
}

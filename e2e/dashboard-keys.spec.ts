import {
  addDays,
  apiGet,
  apiSites,
  authFile,
  createKeyInUi,
  DEMO_SITES,
  expect,
  keyRow,
  RIVAL_SITES,
  test,
  uniqueLabel,
  waitForHydration,
} from './support/dashboard';

/**
 * API keys (issue 4, point 5) end to end: created in the dialog, shown exactly once with Copy → Copied and
 * the warning, working on the API, gone from the page after closing and after a reload (only the prefix
 * stays), revoked after a confirmation that names it, and then refused by the API; a site-restricted key
 * reads only its site; an admin's key for a publisher reads that publisher's sites. Rotate:
 * dashboard-keys-rotate.spec.ts.
 */

test.describe('a publisher', () => {
  test.use({ storageState: authFile('demo') });

  test('creates a key that is shown once, works on the API, leaves only its prefix, and stops working once revoked', async ({
    page,
    context,
    request,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/keys');
    await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
    const label = uniqueLabel('lifecycle');

    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Label')).toBeVisible();
    await expect(dialog.getByRole('group', { name: /Sites/ })).toBeVisible();
    await expect(dialog.getByLabel('Expires', { exact: true })).toHaveValue('never');
    await dialog.getByLabel('Label').fill(label);
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const reveal = page.getByRole('dialog', { name: 'Your new API key' });
    await expect(reveal).toBeVisible();
    await expect(reveal).toContainText('will not be shown again');
    const shown = reveal.getByTestId('new-api-key');
    await expect(shown).toHaveText(/^rpk_[0-9A-Za-z]{20,}$/);
    const key = (await shown.textContent())!.trim();
    await expect(shown).toHaveCSS('font-family', /mono/i);

    // Copy → "Copied", and the clipboard holds the key.
    await reveal.getByRole('button', { name: 'Copy key' }).click();
    await expect(reveal.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    // The key works on the API at once.
    const sites = await apiGet<{ name: string }[]>(request, key, '/api/v1/sites');
    expect(sites.status).toBe(200);
    expect(sites.body.map((s) => s.name).sort()).toEqual([...DEMO_SITES].sort());

    // Closed: the raw key is nowhere on the page; the table shows its prefix.
    await reveal.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await page.content()).not.toContain(key);
    const row = keyRow(page, label);
    await expect(row).toBeVisible();
    const prefix = (await row.locator('td').nth(1).textContent())!.replace('…', '').trim();
    expect(prefix.length).toBeGreaterThanOrEqual(8);
    expect(key.startsWith(prefix)).toBe(true);
    expect(prefix.length).toBeLessThan(key.length / 2);
    await expect(row).toContainText('All sites');
    await expect(row.getByText('Active')).toBeVisible();

    // Reloaded: neither the HTML nor the page holds the key.
    const reloaded = await page.reload();
    expect(await reloaded!.text()).not.toContain(key);
    await expect(keyRow(page, label)).toContainText(`${prefix}…`);
    expect(await page.content()).not.toContain(key);
    // The API has seen the key used.
    await expect(keyRow(page, label).locator('td').nth(4)).not.toHaveText('Never');

    // Revoke asks first, naming the key by label and prefix; Cancel keeps it.
    const revoke = keyRow(page, label).getByRole('button', { name: `Revoke ${label}` });
    await revoke.click();
    let confirm = page.getByRole('alertdialog', { name: `Revoke “${label}”?` });
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText(`${prefix}…`);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    expect((await apiGet(request, key, '/api/v1/sites')).status).toBe(200);

    await revoke.click();
    confirm = page.getByRole('alertdialog', { name: `Revoke “${label}”?` });
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    // Announced, though the row has left the table.
    await expect(page.getByRole('status').filter({ hasText: `Key ${label} was revoked.` })).toBeAttached();
    // Revoked keys leave the list for a folded section of their own.
    await page.getByText(/^Revoked keys \(\d+\)$/).click();
    await expect(keyRow(page, label).getByText('Revoked')).toBeVisible();
    await expect(keyRow(page, label).getByRole('button', { name: /^Revoke/ })).toHaveCount(0);
    const refused = await apiGet<{ status: number }>(request, key, '/api/v1/sites');
    expect(refused.status).toBe(401);
    expect(refused.body.status).toBe(401);
  });

  test('a key restricted to one site reads only that site, and an expiry date is shown', async ({ page, request }) => {
    await page.goto('/keys');
    const today = await page
      .getByRole('button', { name: 'Create key', exact: true })
      .evaluate(() => new Date().toISOString().slice(0, 10));
    const expiresOn = addDays(today, 30);
    const { key, label } = await createKeyInUi(page, { sites: ['Merge Kingdom'], expiresOn });
    const row = keyRow(page, label);
    await expect(row.locator('td').nth(2)).toHaveText('Merge Kingdom');
    const expires = new Date(`${expiresOn}T00:00:00Z`).toLocaleDateString('en-US', {
      timeZone: 'UTC',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
    });
    await expect(row.locator('td').nth(5)).toHaveText(expires);

    const sites = await apiSites(request, key);
    expect(sites.map((s) => s.name)).toEqual(['Merge Kingdom']);
    // Its totals are that site's; naming another site of the account is refused.
    await page.goto('/sites');
    const siteIdOf = async (name: string) =>
      new URL(
        (await page.getByTestId('site-row').getByRole('link', { name, exact: true }).getAttribute('href'))!,
        'http://x',
      ).searchParams.get('sites')!;
    const merge = await siteIdOf('Merge Kingdom');
    const sky = await siteIdOf('Sky Hopper');
    expect(sites[0].siteId).toBe(merge);
    const scoped = await apiGet<{ totalRevenue: number }>(request, key, '/api/v1/reports/totals');
    const named = await apiGet<{ totalRevenue: number }>(request, key, `/api/v1/reports/totals?siteIds=${merge}`);
    expect(scoped.status).toBe(200);
    expect(scoped.body.totalRevenue).toBeGreaterThan(0);
    expect(scoped.body.totalRevenue).toBe(named.body.totalRevenue);
    expect((await apiGet(request, key, `/api/v1/reports/totals?siteIds=${sky}`)).status).toBe(403);
  });

  test('the create dialog explains a bad expiry date instead of failing', async ({ page }) => {
    await page.goto('/keys');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Label').fill(uniqueLabel('expired'));
    // The date picker's minimum is today; typed past dates still reach the server, which refuses them.
    await dialog.getByLabel('Expires', { exact: true }).selectOption({ label: 'On a date…' });
    await dialog.getByLabel('Expires on').evaluate((input: HTMLInputElement) => input.removeAttribute('min'));
    await dialog.getByLabel('Expires on').fill('2020-01-01');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByLabel('Expires on')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog).toContainText('The expiry date must be in the future');
    await expect(page.getByTestId('new-api-key')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  test('a tampered create-key payload gets an error in the dialog, not a crash', async ({ page }) => {
    await page.goto('/keys');
    await waitForHydration(page);
    // A server action is a public endpoint: rewrite what the dialog sends into something it never would.
    let tampered = 0;
    await page.route('**/keys', async (route) => {
      const request = route.request();
      if (request.method() !== 'POST' || !request.headers()['next-action']) return route.continue();
      tampered++;
      await route.continue({ postData: JSON.stringify([{ label: 5, siteIds: 'all', expiresOn: null }]) });
    });
    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Label').fill(uniqueLabel('tampered'));
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('The request was malformed; reload the page and try again.');
    expect(tampered).toBe(1);
    await expect(page.getByTestId('new-api-key')).toHaveCount(0);
  });
});

test.describe('an operator', () => {
  test.use({ storageState: authFile('admin') });

  test('creates a key for a publisher (the for-user operation) that reads that publisher’s sites', async ({
    page,
    request,
    openAs,
  }) => {
    await page.goto('/keys');
    const { key, label } = await createKeyInUi(page, { forPublisher: 'Rival Interactive (rival@example.com)' });
    const sites = await apiSites(request, key);
    expect(sites.map((s) => s.name).sort()).toEqual([...RIVAL_SITES].sort());
    // It belongs to the publisher: on their key list, not on the admin's.
    await page.reload();
    await expect(keyRow(page, label)).toHaveCount(0);
    const rival = await openAs('rival');
    await rival.goto('/keys');
    await expect(keyRow(rival, label)).toBeVisible();
    await expect(keyRow(rival, label)).toContainText('All sites');
  });
});

test.describe('the key list', () => {
  test.use({ storageState: authFile('demo') });

  test('expiry presets, what a site-scoped key cannot do, and revoked keys folded away', async ({ page }) => {
    await page.goto('/keys');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await expect(dialog).toContainText('cannot list, create or revoke keys');
    const label = uniqueLabel('30 days');
    await dialog.getByLabel('Label').fill(label);
    await dialog.getByLabel('Expires', { exact: true }).selectOption({ label: 'In 30 days' });
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByTestId('new-api-key')).toBeVisible();
    await page.getByRole('button', { name: 'Done' }).click();

    // The last day it works, 30 days from today (UTC).
    const today = new Date().toISOString().slice(0, 10);
    const lastDay = new Date(`${addDays(today, 30)}T00:00:00Z`).toLocaleDateString('en-US', {
      timeZone: 'UTC',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
    });
    await expect(keyRow(page, label).locator('td').nth(5)).toHaveText(lastDay);

    // Revoke is styled as destructive (red), and a revoked key leaves the list for the folded section.
    const revoke = keyRow(page, label).getByRole('button', { name: `Revoke ${label}` });
    const colors = await revoke.evaluate((el) => {
      const red = document.createElement('span');
      red.className = 'text-red-700';
      document.body.append(red);
      const result = { button: getComputedStyle(el).color, red: getComputedStyle(red).color };
      red.remove();
      return result;
    });
    expect(colors.button).toBe(colors.red);
    await revoke.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    const revoked = page.getByText(/^Revoked keys \(\d+\)$/);
    await expect(revoked).toBeVisible();
    await expect(keyRow(page, label)).toBeHidden();
    await revoked.click();
    await expect(keyRow(page, label).getByText('Revoked')).toBeVisible();
  });
});

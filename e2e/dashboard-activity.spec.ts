import { authFile, createKeyInUi, expect, test, uniqueLabel } from './support/dashboard';

/**
 * The activity log (issue 21, point 5) in the browser: what a publisher does shows on Settings → Activity with
 * who and when, filterable and downloadable as CSV; an admin's log holds every account's, with an account
 * filter; a publisher cannot open the admin's.
 */

async function csvOf(download: import('@playwright/test').Download): Promise<string> {
  const stream = await download.createReadStream();
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

test.describe('a publisher', () => {
  test.use({ storageState: authFile('demo') });

  test('sees a key it created and revoked in its activity, filters it, and downloads it', async ({ page }) => {
    const label = uniqueLabel('activity');
    const { prefix } = await createKeyInUi(page, { label });

    await page.goto('/settings/activity');
    await expect(page.getByRole('heading', { name: 'Activity', level: 2 })).toBeVisible();
    const created = page
      .getByTestId('activity-row')
      .filter({ hasText: `prefix: ${prefix}` })
      .first();
    await expect(created).toContainText('API key created');
    await expect(created).toContainText('demo@example.com');
    await expect(created).toContainText(`label: ${label}`);

    await page.getByLabel('Event').selectOption({ label: 'API key created' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/kind=key\.created/);
    const kinds = await page.getByTestId('activity-row').locator('td:nth-child(2)').allTextContents();
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(['API key created']));

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^activity-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await csvOf(download)).trim().split('\n');
    expect(lines[0]).toBe('id,at,kind,actorKind,actorId,actorLabel,accountId,subjectId,clientAddress,details');
    expect(lines.slice(1).every((line) => line.includes(',key.created,'))).toBe(true);
    expect(lines.some((line) => line.includes(prefix))).toBe(true);
  });

  test("cannot open the operator's log", async ({ page }) => {
    const response = await page.goto('/admin/activity');
    expect(response?.status()).toBe(404);
  });
});

test.describe('an operator', () => {
  test.use({ storageState: authFile('admin') });

  test("reads every account's events and narrows them to one account", async ({ page }) => {
    await page.goto('/settings/activity');
    await expect(page).toHaveURL(/\/admin\/activity$/);
    await expect(page.getByRole('columnheader', { name: 'Account' })).toBeVisible();
    await page.getByLabel('Account').selectOption({ label: 'Demo Games Ltd' });
    await page.getByRole('button', { name: 'Apply' }).click();
    const accounts = await page.getByTestId('activity-row').locator('td:nth-child(4)').allTextContents();
    expect(accounts.length).toBeGreaterThan(0);
    expect(new Set(accounts)).toEqual(new Set(['Demo Games Ltd']));
  });
});

import type { Page } from '@playwright/test';
import {
  apiGet,
  apiSites,
  authFile,
  createKeyInUi,
  expect,
  keyRow,
  test,
  uniqueLabel,
  waitForHydration,
} from './support/dashboard';

/**
 * Rotate (issue 10, point 8): a replacement with the old key's label and sites, shown once, then the old key
 * revoked on confirmation, or both kept; focus and the announcement survive the old row leaving the table.
 */

/**
 * A key for Merge Kingdom made on /keys, then Rotate on its row, through the confirmation; returns the old
 * key and the dialog that shows the replacement's raw key.
 */
async function createAndRotate(page: Page, what: string) {
  await page.goto('/keys');
  await waitForHydration(page);
  const old = await createKeyInUi(page, { label: uniqueLabel(what), sites: ['Merge Kingdom'] });
  await keyRow(page, old.label)
    .getByRole('button', { name: `Rotate ${old.label}` })
    .click();
  const confirm = page.getByRole('dialog', { name: `Rotate “${old.label}”?` });
  await expect(confirm).toContainText('same label and sites (Merge Kingdom)');
  await expect(confirm).toContainText(`The old key ${old.prefix}… keeps working until you revoke it`);
  await confirm.getByRole('button', { name: 'Create replacement' }).click();
  const reveal = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(reveal.getByTestId('new-api-key')).toHaveText(/^rpk_[0-9A-Za-z]{20,}$/);
  const key = (await reveal.getByTestId('new-api-key').textContent())!.trim();
  expect(key).not.toBe(old.key);
  // Until the old key is revoked, both work and read only the key's site.
  for (const raw of [old.key, key])
    expect((await apiSites(page.request, raw)).map((s) => s.name)).toEqual(['Merge Kingdom']);
  return { old, reveal, key };
}

test.describe('rotating a key', () => {
  test.use({ storageState: authFile('demo') });

  test('makes a replacement with the same label and site, shown once, and revokes the old key on confirmation', async ({
    page,
    request,
  }) => {
    const { old, reveal, key } = await createAndRotate(page, 'rotate');

    await reveal.getByRole('button', { name: `Revoke ${old.prefix}…` }).click();
    await expect(reveal.getByRole('status').filter({ hasText: `Key ${old.label} was revoked.` })).toBeVisible();
    expect((await apiGet(request, old.key, '/api/v1/sites')).status).toBe(401);
    await expect(reveal.getByRole('button', { name: 'Done' })).toBeFocused();
    await reveal.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // The old key's row (and its Rotate button) is gone: focus returns to the table.
    await expect(page.getByRole('region', { name: 'API keys of the account' })).toBeFocused();
    expect(await page.content()).not.toContain(key);

    expect((await apiSites(request, key)).map((s) => s.name)).toEqual(['Merge Kingdom']);
    const active = keyRow(page, old.label);
    await expect(active).toHaveCount(1);
    await expect(active).toContainText(key.slice(0, 12));
    await expect(active.getByText('Active')).toBeVisible();
    await expect(active.locator('td').nth(2)).toHaveText('Merge Kingdom');
    await page.getByText(/^Revoked keys \(\d+\)$/).click();
    const revoked = page.getByRole('region', { name: 'Revoked API keys' }).getByTestId('api-key-row');
    await expect(revoked.filter({ hasText: old.label }).filter({ hasText: `${old.prefix}…` })).toContainText('Revoked');
  });

  test('"Keep both for now" leaves both keys active; the old one can be revoked later from the table', async ({
    page,
    request,
  }) => {
    const { old, reveal, key } = await createAndRotate(page, 'keep both');
    await reveal.getByRole('button', { name: 'Keep both for now' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const oldRow = keyRow(page, old.label).filter({ hasText: `${old.prefix}…` });
    await expect(oldRow.getByRole('button', { name: `Rotate ${old.label}` })).toBeFocused();
    expect(await page.content()).not.toContain(key);

    await expect(keyRow(page, old.label).getByText('Active')).toHaveCount(2);
    for (const raw of [old.key, key]) expect((await apiGet(request, raw, '/api/v1/sites')).status).toBe(200);

    await oldRow.getByRole('button', { name: `Revoke ${old.label}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect(keyRow(page, old.label)).toHaveCount(1);
    expect((await apiGet(request, old.key, '/api/v1/sites')).status).toBe(401);
    expect((await apiGet(request, key, '/api/v1/sites')).status).toBe(200);
  });
});

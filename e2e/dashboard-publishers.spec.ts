import { authFile, expect, test, waitForHydration } from './support/dashboard';
import { invitationPath } from './support/mail';

/**
 * Publisher accounts (issue 21, point 1) end to end: an admin creates a publisher on the Publishers page and
 * copies the invitation link shown once; the publisher opens it in a browser of their own, sets a password and
 * lands on the overview; the link then no longer works; deactivating the account ends that session at once.
 * A publisher has no Publishers page.
 */

const PASSWORD = 'a long passphrase for e2e';

test.describe('an operator', () => {
  test.use({ storageState: authFile('admin') });

  test('invites a publisher who sets a password and signs in; deactivation ends their session', async ({
    page,
    openAs,
  }) => {
    const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const name = `E2E Publisher ${tag}`;
    const email = `e2e-publisher-${tag}@example.com`;

    await page.goto('/admin/publishers');
    await expect(page.getByRole('heading', { name: 'Publishers', level: 1 })).toBeVisible();
    await waitForHydration(page);
    await page.getByRole('button', { name: 'New publisher' }).click();
    const dialog = page.getByRole('dialog', { name: 'New publisher' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByRole('button', { name: 'Create and invite' }).click();

    const invited = page.getByRole('dialog', { name: 'Publisher invited' });
    await expect(invited).toContainText(`Invitation sent to ${email}`);
    // The admin never sees the link: it goes only to the publisher's address.
    await expect(invited.getByText('/invitation/')).toHaveCount(0);
    const link = await invitationPath(email);
    await invited.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row').filter({ hasText: email });
    await expect(row.getByText('Invited', { exact: true })).toBeVisible();

    // The publisher, in a browser of their own: the link's path on this server (PUBLIC_URL may name another).
    const publisher = await openAs(null);
    const response = await publisher.goto(link);
    expect(response!.headers()['referrer-policy']).toBe('no-referrer');
    await expect(publisher.getByRole('heading', { name: 'Welcome! Choose your password' })).toBeVisible();
    await expect(publisher.getByText(name)).toBeVisible();
    await expect(publisher.getByText(email)).toBeVisible();
    await waitForHydration(publisher);

    // Two different passwords are refused on the second field, which gets the focus.
    await publisher.getByLabel('New password').fill(PASSWORD);
    await publisher.getByLabel('Type it again').fill(`${PASSWORD}!`);
    await publisher.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(publisher.getByText('The two passwords differ')).toBeVisible();
    await expect(publisher.getByLabel('Type it again')).toBeFocused();

    await publisher.getByLabel('New password').fill(PASSWORD);
    await publisher.getByLabel('Type it again').fill(PASSWORD);
    await publisher.getByRole('button', { name: 'Set password and sign in' }).click();
    // The overview of the account the invitation was for: the URL says which.
    await expect(publisher).toHaveURL(/\/\?as=[0-9a-f-]{36}$/);
    await expect(publisher.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

    // The link was single use.
    await publisher.goto(link);
    await expect(publisher.getByRole('heading', { name: 'This invitation link no longer works' })).toBeVisible();

    // Active on the admin's page; deactivation, after a confirmation naming the account, ends the session.
    await page.reload();
    await expect(row.getByText('Active', { exact: true })).toBeVisible();
    await expect(row.getByText('Never')).toHaveCount(0);
    await waitForHydration(page);
    await row.getByRole('button', { name: `Deactivate ${name}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Deactivate ${name}?` });
    await expect(confirm).toContainText('signed out everywhere');
    await confirm.getByRole('button', { name: 'Deactivate account' }).click();
    await expect(row.getByRole('status')).toContainText('was deactivated');
    await expect(row.getByText('Deactivated', { exact: true })).toBeVisible();

    await publisher.goto('/');
    await expect(publisher).toHaveURL(/\/login/);
    await expect(publisher.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();

    // Reactivated, it signs in again with its password; its old session stays ended.
    await row.getByRole('button', { name: `Reactivate ${name}` }).click();
    await expect(row.getByText('Active', { exact: true })).toBeVisible();
  });
});

test.describe('a publisher', () => {
  test.use({ storageState: authFile('demo') });

  test('has no Publishers page and no link to one', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Publishers' })).toHaveCount(
      0,
    );
    const response = await page.goto('/admin/publishers');
    expect(response!.status()).toBe(404);
  });
});

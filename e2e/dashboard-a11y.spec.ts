import { expectNoViolationsInBothSchemes } from './support/axe';
import { invitationPath } from './support/mail';
import {
  authFile,
  createKeyInUi,
  DEMO_SITES,
  expect,
  renderCharts,
  test,
  uniqueLabel,
  USERS,
  waitForHydration,
} from './support/dashboard';

/**
 * axe (WCAG 2.0/2.1 A and AA rules) finds nothing on any page, in the light and the dark colour scheme,
 * including the create-key dialog open, a new key revealed, each step of the rotate dialog and the site
 * multi-select open.
 */

test('the sign-in page, also with an error shown', async ({ page }) => {
  await page.goto('/login');
  await waitForHydration(page);
  await expectNoViolationsInBothSchemes(page, '/login');
  await page.getByLabel('Email').fill('nobody-a11y@example.com');
  await page.getByLabel('Password').fill('wrong');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Invalid email or password');
  await expectNoViolationsInBothSchemes(page, '/login with an error');
});

test('an unusable invitation link', async ({ page }) => {
  await page.goto('/invitation/not-a-real-invitation-token');
  await expect(page.getByRole('heading', { name: 'This invitation link no longer works' })).toBeVisible();
  await expectNoViolationsInBothSchemes(page, '/invitation with an unusable link');
});

test.describe('an operator', () => {
  test.use({ storageState: authFile('admin') });

  test('/admin/publishers, with the new-publisher dialog, its errors, the invitation sent and a confirmation', async ({
    page,
  }) => {
    // Seven scans in two schemes, and the invitation's e-mail to wait for: the link goes nowhere else.
    test.setTimeout(90_000);
    await page.goto('/admin/publishers');
    await waitForHydration(page);
    await expectNoViolationsInBothSchemes(page, '/admin/publishers');
    await page.getByRole('button', { name: 'New publisher' }).click();
    const dialog = page.getByRole('dialog', { name: 'New publisher' });
    await dialog.getByRole('button', { name: 'Create and invite' }).click();
    await expect(dialog.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');
    await expectNoViolationsInBothSchemes(page, '/admin/publishers with the dialog’s errors');
    const name = `A11y ${Date.now().toString(36)}`;
    await dialog.getByLabel('Name').fill(name);
    const email = `a11y-${Date.now().toString(36)}@example.com`;
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByRole('button', { name: 'Create and invite' }).click();
    const invited = page.getByRole('dialog', { name: 'Publisher invited' });
    await expect(invited.getByText('Invitation sent to')).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/admin/publishers with the invitation sent');
    const link = await invitationPath(email);
    await invited.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: `Deactivate ${name}` }).click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/admin/publishers with the deactivate confirmation open');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();

    // The invitation page, signed out, with a refused password.
    // A context of its own: axe runs only in pages of a context a test made (browser.newContext()).
    const signedOut = await page.context().browser()!.newContext();
    const invitee = await signedOut.newPage();
    await invitee.goto(new URL(link, page.url()).toString());
    await waitForHydration(invitee);
    await expectNoViolationsInBothSchemes(invitee, '/invitation');
    await invitee.getByLabel('New password').fill('short');
    await invitee.getByLabel('Type it again').fill('short');
    await invitee.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(invitee.getByText(/The password must/)).toBeVisible();
    await expectNoViolationsInBothSchemes(invitee, '/invitation with a refused password');
    await signedOut.close();
  });
});

test.describe('an operator, among people', () => {
  test.use({ storageState: authFile('admin') });

  test('/admin/people', async ({ page }) => {
    await page.goto('/admin/people');
    await waitForHydration(page);
    await expect(page.getByTestId('person-row').first()).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/admin/people');
  });

  test('/admin/payouts, with a payment being recorded', async ({ page }) => {
    await page.goto('/admin/payouts');
    await waitForHydration(page);
    await expectNoViolationsInBothSchemes(page, '/admin/payouts');
    await page
      .getByTestId('unpaid-row')
      .first()
      .getByRole('button', { name: /^Record payment/ })
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/admin/payouts with the record-payment dialog');
  });
});

test.describe('signed in', () => {
  test.use({ storageState: authFile('demo') });

  test('overview, with the site multi-select open', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    await renderCharts(page);
    await expectNoViolationsInBothSchemes(page, '/');
    await page.getByRole('button', { name: 'Sites: All sites' }).click();
    await expect(page.getByRole('group', { name: 'Sites' })).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/ with the site multi-select open');
  });

  test('the Download menu open', async ({ page }) => {
    await page.goto('/sites');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Download' }).click();
    await expect(page.getByRole('dialog', { name: 'Download CSV' })).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/sites with the Download menu open');
  });

  for (const path of ['/countries', '/sites', '/payments', '/settings/activity', '/docs', '/no-such-page']) {
    test(path, async ({ page }) => {
      await page.goto(path);
      await waitForHydration(page);
      await expectNoViolationsInBothSchemes(page, path);
    });
  }

  test('/settings/members, with an invitation sent and the remove confirmation open', async ({ page }) => {
    await page.goto('/settings/members');
    await waitForHydration(page);
    await expectNoViolationsInBothSchemes(page, '/settings/members');
    const email = `a11y-member-${Date.now().toString(36)}@example.com`;
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Role of the new member').selectOption('viewer');
    await page.getByRole('checkbox', { name: DEMO_SITES[0] }).check();
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Invitation sent to ${email}` })).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/settings/members with the invitation sent');
    await page.getByRole('button', { name: `Remove ${USERS.finance.name}` }).click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/settings/members with the remove confirmation open');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    // The demo account is shared by the suite: the invitation goes again.
    await page.getByRole('button', { name: `Revoke the invitation of ${email}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke invitation' }).click();
    await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toHaveCount(0);
  });

  test('/settings/security, with the two-factor setup and a refused code', async ({ page }) => {
    await page.goto('/settings/security');
    await waitForHydration(page);
    await expectNoViolationsInBothSchemes(page, '/settings/security');
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await expect(page.getByRole('img', { name: 'QR code of the two-factor secret' })).toBeVisible();
    await page.getByLabel('Code from your app').fill('000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('This code is not right')).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/settings/security with the two-factor setup and a refused code');
  });

  test('a statement’s detail', async ({ page }) => {
    await page.goto('/payments');
    await page.getByTestId('statement-row').nth(1).getByRole('link').first().click();
    await expect(page.getByRole('heading', { name: /^Statement · /, level: 1 })).toBeVisible();
    await expectNoViolationsInBothSchemes(page, 'a statement');
  });

  test('/countries sorted, filtered to nothing and with a filter error', async ({ page }) => {
    await page.goto('/countries?sortBy=cpm&sortDirection=desc&page=2');
    await expectNoViolationsInBothSchemes(page, '/countries sorted, page 2');
    await page.goto('/countries?Search=zzzz');
    await expectNoViolationsInBothSchemes(page, '/countries without rows');
    await page.goto('/countries?Filter=nosuchfield>1');
    await expectNoViolationsInBothSchemes(page, '/countries with a filter error');
  });

  test('/keys, with the create dialog open and with a new key revealed', async ({ page }) => {
    await page.goto('/keys');
    await waitForHydration(page);
    await expectNoViolationsInBothSchemes(page, '/keys');
    await page.getByRole('button', { name: 'Create key', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await expect(dialog).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/keys with the create dialog open');
    const label = uniqueLabel('axe');
    await dialog.getByLabel('Label').fill(label);
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByTestId('new-api-key')).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/keys with a new key revealed');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByRole('button', { name: `Revoke ${label}` }).click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/keys with the revoke confirmation open');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await page.getByText(/^Revoked keys \(\d+\)$/).click();
    await expect(page.getByTestId('api-key-row').filter({ hasText: label }).getByText('Revoked')).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/keys with a revoked key');
  });

  test('/keys, with the rotate dialog at each step', async ({ page }) => {
    await page.goto('/keys');
    await waitForHydration(page);
    const old = await createKeyInUi(page, { label: uniqueLabel('axe rotate'), sites: ['Sky Hopper'] });
    await page.getByRole('button', { name: `Rotate ${old.label}` }).click();
    const confirm = page.getByRole('dialog', { name: `Rotate “${old.label}”?` });
    await expect(confirm).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/keys with the rotate confirmation open');
    await confirm.getByRole('button', { name: 'Create replacement' }).click();
    const reveal = page.getByRole('dialog', { name: 'Your new API key' });
    await expect(reveal.getByTestId('new-api-key')).toBeVisible();
    await expectNoViolationsInBothSchemes(page, '/keys with the replacement revealed');
    await reveal.getByRole('button', { name: `Revoke ${old.prefix}…` }).click();
    await expect(reveal.getByRole('status')).toHaveText(`Key ${old.label} was revoked.`);
    await expectNoViolationsInBothSchemes(page, '/keys with the old key revoked from the rotate dialog');
    await reveal.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

import { authFile, DEMO_SITES, expect, test, waitForHydration } from './support/dashboard';
import { invitationPath } from './support/mail';

/**
 * Teams (issue 22, points 1 to 4) in the browser: the demo publisher's Owner invites a Viewer limited to one
 * site; the invitee opens the link e-mailed to them (never shown to the Owner) in a browser of their own, chooses a password and lands on the
 * account named in the URL, where the navigation has no API keys and the site filter offers that one site;
 * the Owner makes them Finance, then removes them, and their session stops working at once.
 */

const PASSWORD = 'a long passphrase for a member';

test.use({ storageState: authFile('demo') });

test('an Owner invites a Viewer for one site, changes the role, removes them, and the session ends', async ({
  page,
  openAs,
}) => {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const email = `e2e-member-${tag}@example.com`;
  const site = DEMO_SITES[0];

  await page.goto('/settings/members');
  await expect(page.getByRole('link', { name: 'Members' })).toHaveAttribute('aria-current', 'page');
  await waitForHydration(page);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Role of the new member').selectOption('viewer');
  await page.getByRole('checkbox', { name: site }).check();
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Invitation sent to ${email}` })).toBeVisible();
  // The Owner is told it was sent; the link is nowhere on their page.
  await expect(page.getByText('/invitation/')).toHaveCount(0);
  const link = await invitationPath(email);
  const invitation = page.getByTestId('invitation-row').filter({ hasText: email });
  await expect(invitation).toContainText(`Viewer · only ${site}`);

  // The invitee, in a browser of their own.
  const member = await openAs(null);
  await member.goto(link);
  await expect(member.getByRole('heading', { name: 'Welcome! Choose your password' })).toBeVisible();
  await expect(member.getByText(`${email} · Viewer`)).toBeVisible();
  await waitForHydration(member);
  await member.getByLabel('Your name').fill(`Member ${tag}`);
  await member.getByLabel('New password').fill(PASSWORD);
  await member.getByLabel('Type it again').fill(PASSWORD);
  await member.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(member).toHaveURL(/\/\?as=[0-9a-f-]{36}$/);
  await expect(member.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  const nav = member.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Sites' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'API keys' })).toHaveCount(0);
  // The Sites page lists the one site the Viewer may read, and no button to add one.
  await nav.getByRole('link', { name: 'Sites' }).click();
  await expect(member.getByRole('heading', { name: 'Sites', level: 1 })).toBeVisible();
  await expect(member.getByRole('link', { name: site, exact: true }).first()).toBeVisible();
  for (const other of DEMO_SITES.slice(1)) await expect(member.getByText(other, { exact: true })).toHaveCount(0);
  await expect(member.getByRole('button', { name: 'Add site' })).toHaveCount(0);
  // Keys are for Owners and Admins, whatever the URL.
  await member.goto('/keys');
  await expect(member.getByText('Owners and Admins create and revoke its API keys')).toBeVisible();

  // The Owner sees them as a member now, makes them Finance, then removes them.
  await page.reload();
  await waitForHydration(page);
  const row = page.getByTestId('member-row').filter({ hasText: email });
  await expect(row).toContainText(`Member ${tag}`);
  await row.getByLabel(`Role of Member ${tag}`).selectOption('finance');
  await expect(page.getByRole('status').filter({ hasText: 'The role was changed.' })).toBeVisible();
  await member.goto('/settings/members');
  await expect(member.getByText('ask one of them for a change')).toBeVisible();

  await row.getByRole('button', { name: `Remove Member ${tag}` }).click();
  const confirm = page.getByRole('alertdialog', { name: `Remove Member ${tag}?` });
  await confirm.getByRole('button', { name: 'Remove member' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'was removed' })).toBeVisible();
  await expect(page.getByTestId('member-row').filter({ hasText: email })).toHaveCount(0);

  // Their only account is gone: the next page sends them to sign in.
  await member.goto('/');
  await expect(member).toHaveURL(/\/login/);
});

test('a Viewer’s invitation can be revoked: its link stops working', async ({ page, openAs }) => {
  const email = `e2e-revoked-${Date.now().toString(36)}@example.com`;
  await page.goto('/settings/members');
  await waitForHydration(page);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const link = await invitationPath(email);
  const invitation = page.getByTestId('invitation-row').filter({ hasText: email });
  await invitation.getByRole('button', { name: `Revoke the invitation of ${email}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke invitation' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'was revoked' })).toBeVisible();
  await expect(invitation).toHaveCount(0);

  const stranger = await openAs(null);
  await stranger.goto(link);
  await expect(stranger.getByRole('heading', { name: 'This invitation link no longer works' })).toBeVisible();
});

import type { Page } from '@playwright/test';
import { expectNoViolations } from './support/axe';
import { expect, test, uniqueLabel, waitForHydration } from './support/dashboard';

/**
 * Sites and their review (issue 21, point 3) end to end, as the two people would: the publisher adds a site
 * on the Sites page (pending), the admin approves it in the review queue and it goes live, and the publisher
 * sees it live; sent back with a reason, the publisher sees the reason and the history. The site has no
 * revenue, so the publisher deletes it at the end (after a confirmation) and the demo data is as it was.
 */

/** The publisher's card of a site on /sites, found by its name. */
const ownCard = (page: Page, name: string) =>
  page.getByTestId('site-status').filter({ has: page.getByRole('heading', { name, exact: true }) });
/** The admin's card of a site on /admin/sites, found by its name. */
const queueCard = (page: Page, name: string) =>
  page.getByTestId('review-site').filter({ has: page.getByRole('heading', { name, exact: true }) });

test('a publisher adds a site, an operator approves it and takes it live, sends it back with a reason the publisher sees', async ({
  openAs,
}) => {
  const name = uniqueLabel('site');
  const publisher = await openAs('demo');
  // The Sites page's second tab, its range kept in the link.
  await publisher.goto('/sites?from=2026-01-01&to=2026-01-31');
  const tabs = publisher.getByRole('navigation', { name: 'Sites views' });
  await expect(tabs.getByRole('link', { name: 'Revenue' })).toHaveAttribute('aria-current', 'page');
  await tabs.getByRole('link', { name: /^Review status/ }).click();
  await expect(publisher).toHaveURL(/\/sites\?from=2026-01-01&to=2026-01-31&view=review$/);
  await waitForHydration(publisher);

  // Add site: a wrong URL is named beside its field, then the site is added as pending.
  await publisher.getByRole('button', { name: 'Add site' }).click();
  const dialog = publisher.getByRole('dialog', { name: 'Add a site' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('URL').fill('ftp://example.com/game');
  await dialog.getByLabel('Framework').fill('phaser');
  await dialog.getByRole('button', { name: 'Add site' }).click();
  await expect(dialog.getByLabel('URL')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText(/must be an http:\/\/ or https:\/\/ address/)).toBeVisible();
  await dialog.getByLabel('URL').fill('https://e2e-site.example.com/play');
  await dialog.getByRole('button', { name: 'Add site' }).click();
  await expect(dialog).toBeHidden();
  await expect(ownCard(publisher, name)).toContainText('Pending review');
  await expect(tabs.getByRole('link', { name: /^Review status \(\d+ pending\)$/ })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // The admin's queue: pending first; approve, then go live.
  const admin = await openAs('admin');
  await admin.goto('/admin/sites?status=pending');
  await waitForHydration(admin);
  await expect(admin.getByRole('heading', { name: 'Site review', level: 1 })).toBeVisible();
  await expectNoViolations(admin, 'the review queue');
  const card = queueCard(admin, name);
  await expect(card).toContainText('demo@example.com');
  await card.getByRole('button', { name: `Approve ${name}` }).click();
  // Approved, it leaves the pending tab.
  await expect(card).toHaveCount(0);
  await admin.goto('/admin/sites?status=approved');
  await expect(queueCard(admin, name)).toContainText('Approved');
  await queueCard(admin, name)
    .getByRole('button', { name: `Go live ${name}` })
    .click();
  await expect(queueCard(admin, name)).toHaveCount(0);
  await admin.goto('/admin/sites?status=live');
  await expect(queueCard(admin, name)).toContainText('Live');

  await publisher.reload();
  await expect(ownCard(publisher, name)).toContainText('Live');
  // Reviewed: the publisher no longer edits it.
  await expect(ownCard(publisher, name).getByRole('button', { name: `Edit ${name}` })).toHaveCount(0);

  // Sent back with a reason: the reason is required, then shown to the publisher with the history.
  const live = queueCard(admin, name);
  await live.getByRole('button', { name: `Send back ${name}` }).click();
  const sendBack = admin.getByRole('dialog', { name: `Send ${name} back` });
  await sendBack.getByRole('button', { name: 'Send back' }).click();
  await expect(sendBack.getByLabel('Reason')).toHaveAttribute('aria-invalid', 'true');
  const reason = 'The game shows a blank screen on mobile Safari.';
  await sendBack.getByLabel('Reason').fill(reason);
  await sendBack.getByRole('button', { name: 'Send back' }).click();
  await expect(sendBack).toBeHidden();
  await expect(queueCard(admin, name)).toHaveCount(0);

  await publisher.reload();
  const own = ownCard(publisher, name);
  await expect(own).toContainText('Pending review');
  await expect(own.getByRole('note')).toContainText(reason);
  await own.getByText(`History`).click();
  for (const step of ['Added as pending', 'Approved', 'Went live', 'Sent back to pending']) {
    await expect(own.getByRole('listitem').filter({ hasText: step })).toHaveCount(1);
  }
  await expect(own).not.toContainText('admin@example.com');
  await expectNoViolations(publisher, 'the Sites page with a site sent back');

  // No revenue: the publisher deletes it, after a confirmation that names it.
  await own.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = publisher.getByRole('alertdialog', { name: `Delete “${name}”?` });
  await confirm.getByRole('button', { name: 'Delete site' }).click();
  await expect(ownCard(publisher, name)).toHaveCount(0);
});

test('a publisher does not see the review queue', async ({ openAs }) => {
  const publisher = await openAs('demo');
  await publisher.goto('/sites');
  await expect(
    publisher.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Site review' }),
  ).toHaveCount(0);
  const response = await publisher.goto('/admin/sites');
  expect(response?.status()).toBe(404);
});

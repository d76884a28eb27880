import { DEMO_IDS } from '../db/seed-data';
import { expectNoViolations } from './support/axe';
import {
  authFile,
  createKeyAs,
  DEMO_SITES,
  expect,
  keyRow,
  kpiValues,
  renderCharts,
  RIVAL_SITES,
  test,
  uniqueLabel,
  waitForHydration,
} from './support/dashboard';

/**
 * An admin looks at a publisher's dashboard read-only (issue 10, point 9): a choice of publisher instead of
 * a page of zeros, the publisher's own figures under a "Viewing as …" strip that stays across pages, a switch
 * to another publisher, the publisher's keys without any action, and a way out.
 */
test.use({ storageState: authFile('admin') });

const range = '?from=2026-10-01&to=2026-10-31';

test('chooses a publisher and sees their dashboard, the same figures they see, labelled and read-only', async ({
  page,
  openAs,
}) => {
  await page.goto(`/${range}`);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(page.getByText('Choose a publisher to see their dashboard, read-only.')).toBeVisible();
  await expect(page.getByTestId('kpi-revenue')).toHaveCount(0);
  await page
    .getByRole('list', { name: 'Publishers' })
    .getByRole('link', { name: /demo@example\.com/ })
    .click();

  await expect(page).toHaveURL(new RegExp(`as=${DEMO_IDS.users.demo}`));
  await expect(page).toHaveURL(/from=2026-10-01/);
  const strip = page.getByRole('region', { name: 'Viewing as' });
  await expect(strip).toContainText('Viewing as Demo Games Ltd');
  await expect(strip).toContainText('read-only');

  // The publisher's own page for the same range shows the very same figures.
  const demo = await openAs('demo');
  await demo.goto(`/${range}`);
  expect(await kpiValues(page)).toEqual(await kpiValues(demo));
  expect((await kpiValues(page)).totalRevenue).toBeGreaterThan(0);

  // The navigation keeps whose dashboard it is: Sites lists the publisher's sites.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' }).click();
  await expect(page.getByRole('heading', { name: 'Sites', level: 1 })).toBeVisible();
  await expect(strip).toContainText('Demo Games Ltd');
  await expect(page.getByTestId('site-row')).toHaveCount(DEMO_SITES.length);

  // A site's name narrows the viewed dashboard to it, still as the publisher.
  await page.getByRole('link', { name: 'Sky Hopper' }).first().click();
  await expect(page).toHaveURL(new RegExp(`sites=${DEMO_IDS.sites.skyHopper}`));
  await expect(page).toHaveURL(new RegExp(`as=${DEMO_IDS.users.demo}`));
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(strip).toBeVisible();
});

test('switches to another publisher (their sites, not the last one’s filter), then stops viewing', async ({ page }) => {
  await page.goto(`/sites${range}&as=${DEMO_IDS.users.demo}&sites=${DEMO_IDS.sites.skyHopper}`);
  await waitForHydration(page);
  const strip = page.getByRole('region', { name: 'Viewing as' });
  await strip.getByLabel('Switch publisher').selectOption({ label: 'Rival Interactive' });
  await expect(strip).toContainText('Viewing as Rival Interactive');
  await expect(page).not.toHaveURL(/sites=/);
  await expect(page).toHaveURL(/from=2026-10-01/);
  await expect(page.getByTestId('site-row')).toHaveCount(RIVAL_SITES.length);
  for (const name of RIVAL_SITES) await expect(page.getByTestId('site-row').filter({ hasText: name })).toHaveCount(1);

  await strip.getByRole('link', { name: 'Stop viewing' }).click();
  await expect(page.getByRole('region', { name: 'Viewing as' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Publishers' })).toBeVisible();
});

test('the publisher’s keys are listed without any action; the operator’s own keys page is unchanged', async ({
  page,
  browser,
}) => {
  const label = uniqueLabel('viewed by admin');
  await createKeyAs(browser, 'demo', { label });
  await page.goto(`/keys?as=${DEMO_IDS.users.demo}`);
  await expect(page.getByRole('region', { name: 'Viewing as' })).toContainText('Demo Games Ltd');
  await expect(keyRow(page, label)).toBeVisible();
  await expect(page.getByRole('main').getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('main')).toContainText('read-only');

  await page.goto('/keys');
  await expect(keyRow(page, label)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create key for a publisher' })).toBeVisible();
});

test('a download from the viewed dashboard is the publisher’s', async ({ page }) => {
  const response = await page.request.get(`/export/sites${range}&as=${DEMO_IDS.users.demo}`);
  expect(response.status()).toBe(200);
  const text = await response.text();
  for (const name of DEMO_SITES) expect(text).toContain(name);
  for (const name of RIVAL_SITES) expect(text).not.toContain(name);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the chooser and the viewed dashboard have no axe violations (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/');
    await expect(page.getByRole('list', { name: 'Publishers' })).toBeVisible();
    await expectNoViolations(page, `the publisher chooser, ${scheme}`);
    await page.goto(`/?as=${DEMO_IDS.users.demo}`);
    await waitForHydration(page);
    await renderCharts(page);
    await expectNoViolations(page, `a publisher's overview viewed by an operator, ${scheme}`);
    await page.goto('/?as=not-a-publisher');
    await expect(page.getByRole('main').getByRole('alert')).toContainText('This dashboard can’t be shown');
    await expectNoViolations(page, `an ?as= that names no publisher, ${scheme}`);
  });
}

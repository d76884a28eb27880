import type { APIRequestContext } from '@playwright/test';
import { DEMO_IDS } from '../db/seed-data';
import { authFile, expect, test, waitForHydration } from './support/dashboard';
import { invitationPath } from './support/mail';

/**
 * Every cookie door checks what its page checks (issue 39, point 3): the dashboard's downloads, each through
 * lib/dashboard/cookie-route.ts, for Finance, for a Viewer of one site and for a member without the second factor
 * their account requires. A refusal is a problem+json 403 naming why, never a 500 and never the file.
 */
const SKY_HOPPER = DEMO_IDS.sites.skyHopper;
const MERGE_KINGDOM = DEMO_IDS.sites.mergeKingdom;
const REPORTS = ['daily', 'sites', 'countries', 'rows'];
const ACTIVITY = '/settings/activity/export';

/** The statements of the month before this one, which the seed closed. */
function lastMonthsStatements() {
  const last = new Date();
  last.setUTCDate(0);
  const month = last.toISOString().slice(0, 7);
  return [`/payments/${month}/statement.csv`, `/payments/${month}/statement.pdf`];
}

/** Each path's status, in one list a failure prints whole; HEAD where the file is large (the rows, a PDF). */
async function statuses(request: APIRequestContext, paths: string[]) {
  const answers = [];
  for (const path of paths) {
    const large = /\/(rows|statement\.pdf)(\?|$)/.test(path);
    const response = await (large ? request.head(path) : request.get(path));
    answers.push(`${path} ${response.status()}`);
  }
  return answers;
}

/** A refusal: 403 as problem+json whose detail says why. */
async function expectRefused(request: APIRequestContext, path: string, why: string | RegExp) {
  const response = await request.get(path);
  expect(response.status(), path).toBe(403);
  expect(response.headers()['content-type'], path).toContain('application/problem+json');
  expect((await response.json()).detail, path).toMatch(why);
}

test('Finance downloads every report and statement, and not the activity log', async ({ openAs }) => {
  const { request } = (await openAs('finance')).context();
  const allowed = [...REPORTS.map((report) => `/export/${report}`), ...lastMonthsStatements()];
  expect(await statuses(request, allowed)).toEqual(allowed.map((path) => `${path} 200`));
  await expectRefused(
    request,
    ACTIVITY,
    'Downloading the activity log needs the Owner or Admin role; you are Finance.',
  );
});

test('a Viewer of one site downloads the reports of that site only: no other site, rows, statement or log', async ({
  openAs,
}) => {
  const { request } = (await openAs('viewer')).context();
  const mine = ['daily', 'sites', 'countries'].map((report) => `/export/${report}?sites=${SKY_HOPPER}`);
  expect(await statuses(request, mine)).toEqual(mine.map((path) => `${path} 200`));
  for (const report of ['daily', 'sites', 'countries']) {
    await expectRefused(request, `/export/${report}?sites=${MERGE_KINGDOM}`, /.+/);
  }
  await expectRefused(request, '/export/rows', 'you may read only some of its sites');
  for (const path of lastMonthsStatements()) {
    await expectRefused(request, path, 'Downloading statements needs the Owner or Finance role; you are Viewer.');
  }
  await expectRefused(request, ACTIVITY, 'Downloading the activity log needs the Owner or Admin role; you are Viewer.');
});

test.describe('an account that requires two-factor sign-in', () => {
  test.use({ storageState: authFile('admin') });

  test('refuses every download to its member without a second factor, as every page leads them to set one up', async ({
    page,
    openAs,
  }) => {
    test.setTimeout(90_000);
    // A publisher account of its own (the demo ones are shared by every spec): invited, joined, its Owner alone.
    const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const email = `e2e-downloads-${tag}@example.com`;
    await page.goto('/admin/publishers');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'New publisher' }).click();
    const dialog = page.getByRole('dialog', { name: 'New publisher' });
    await dialog.getByLabel('Name').fill(`E2E Downloads ${tag}`);
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByRole('button', { name: 'Create and invite' }).click();
    await expect(page.getByRole('dialog', { name: 'Publisher invited' })).toContainText(`Invitation sent to ${email}`);

    const owner = await openAs(null);
    await owner.goto(await invitationPath(email));
    await owner.getByLabel('New password').fill('a long passphrase for e2e');
    await owner.getByLabel('Type it again').fill('a long passphrase for e2e');
    await owner.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(owner.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    const account = new URL(owner.url()).searchParams.get('as');
    // Before: the Owner downloads the log (the reports and statements go the same way).
    expect((await owner.request.get(ACTIVITY)).status()).toBe(200);

    await owner.goto('/settings/members');
    await waitForHydration(owner);
    await owner.getByText('Require two-factor sign-in for every member').click();
    await expect(owner.getByRole('status').filter({ hasText: 'is now required' })).toBeVisible();

    const every = [
      ...REPORTS.map((report) => `/export/${report}`),
      ...lastMonthsStatements(),
      ACTIVITY,
      `${ACTIVITY}?as=${account}`,
    ];
    for (const path of every) await expectRefused(owner.request, path, 'requires two-factor sign-in');
    // The pages lead them to set it up; the downloads wait until it is done.
    await owner.goto('/');
    await expect(owner).toHaveURL(/\/settings\/security\?setup=two-factor$/);
  });
});

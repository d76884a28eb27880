import { DASHBOARD_ROUTES, expect, signIn, test, USERS, waitForHydration } from './support/dashboard';
import { SESSION_COOKIE } from '@/lib/dashboard/session-cookie';

/**
 * Signing in and out (issue 4, point 1) in a real browser, each test in a fresh signed-out context: the
 * labelled form, one generic message for a wrong password and an unknown e-mail, the session cookie's
 * attributes, sign-out ending the session on the server, and the redirect of signed-out visitors.
 */

test('the sign-in form has labelled fields and one message for a wrong password and an unknown e-mail', async ({
  page,
}) => {
  await page.goto('/login');
  await expect(page).toHaveTitle(/Sign in/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to your account');
  const email = page.getByLabel('Email');
  const password = page.getByLabel('Password');
  await expect(email).toHaveAttribute('type', 'email');
  await expect(password).toHaveAttribute('type', 'password');
  await expect(email).toBeFocused();

  await signIn(page, USERS.demo.email, 'not-the-password');
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toHaveText('Invalid email or password');
  await expect(page).toHaveURL(/\/login$/);
  // The e-mail stays filled in; the password does not.
  await expect(email).toHaveValue(USERS.demo.email);

  await signIn(page, 'nobody-here@example.com', 'demo-password');
  await expect(alert).toHaveText('Invalid email or password');
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain(SESSION_COOKIE);
});

test('the session cookie is HttpOnly, Secure and SameSite=Lax, and signing out ends the session on the server', async ({
  page,
  openAs,
  baseURL,
}) => {
  await page.goto('/login');
  await signIn(page, USERS.demo.email);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner')).toContainText(USERS.demo.name);

  const cookie = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE);
  expect(cookie, 'a session cookie is set').toBeDefined();
  expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
  // A database session, not the account: the value is a long random token.
  expect(cookie!.value.length).toBeGreaterThanOrEqual(40);
  // HttpOnly: scripts on the page cannot read it.
  expect(await page.evaluate(() => document.cookie)).not.toContain(SESSION_COOKIE);

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain(SESSION_COOKIE);

  // Replaying the old cookie value: the server no longer knows the session.
  const replayPage = await openAs(null);
  const replay = replayPage.context();
  await replay.addCookies([
    { name: cookie!.name, value: cookie!.value, url: baseURL!, httpOnly: true, secure: true, sameSite: 'Lax' },
  ]);
  for (const route of ['/', '/keys']) {
    await replayPage.goto(route);
    await expect(replayPage).toHaveURL(/\/login$/);
    await expect(replayPage.getByRole('button', { name: 'Sign in' })).toBeVisible();
  }
  const csv = await replay.request.get('/export/countries');
  expect(csv.status()).toBe(401);
});

test('every dashboard route sends a signed-out visitor to /login and back after signing in', async ({ page }) => {
  for (const route of DASHBOARD_ROUTES) {
    const response = await page.goto(route);
    expect(response!.ok()).toBe(true);
    const url = new URL(page.url());
    expect(url.pathname, `${route} redirects to the sign-in page`).toBe('/login');
    expect(url.searchParams.get('next')).toBe(route === '/' ? null : route);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  }

  // The page asked for, with its query, is where signing in leads.
  const wanted = '/countries?sortBy=cpm&sortDirection=asc';
  await page.goto(wanted);
  await expect(page).toHaveURL(/\/login\?next=/);
  await signIn(page, USERS.rival.email);
  await expect(page).toHaveURL(wanted);
  await expect(page.getByRole('heading', { name: 'Countries', level: 1 })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'eCPM' })).toHaveAttribute('aria-sort', 'ascending');

  // Signed in, /login itself moves on to the dashboard.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
});

test('a "next" pointing at another site is ignored', async ({ page }) => {
  await page.goto('/login?next=//evil.example/steal');
  await signIn(page, USERS.rival.email);
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
});

test('signing in works with the keyboard alone', async ({ page }) => {
  await page.goto('/login?next=/sites');
  await waitForHydration(page);
  // The e-mail field has focus on arrival; Tab moves through the form in order.
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(USERS.admin.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type('demo-password');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/sites$/);
  await expect(page.getByRole('heading', { name: 'Sites', level: 1 })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText(USERS.admin.name);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' })).toHaveAttribute(
    'aria-current',
    'page',
  );
});

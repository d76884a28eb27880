import { type Browser, expect, type Page, test } from '@playwright/test';
import { secretsIn } from '../tests/support/secrets';
import { inOneSignInWindow, signIn, USERS } from './support/dashboard';
import { makeTempDir, startServer, type ServerProcess } from './support/servers';

/**
 * Issue 9, point 3, through the sign-in form of a production server that trusts X-Forwarded-For
 * (TRUST_PROXY=1), so each browser context can come from an address of its own. The server has its own
 * embedded database: the throttling and sign-outs here never touch the sessions the other specs reuse.
 */
let server: ServerProcess;
const OWNER = USERS.demo.email;

test.beforeAll(async () => {
  // A production server on a new embedded database with the demo data: a minute on a busy machine.
  test.setTimeout(120_000);
  server = await startServer({
    name: 'sign-in',
    database: { PGLITE_DIR: makeTempDir('signin') },
    env: { TRUST_PROXY: '1' },
    ready: { path: '/api/v1/health', status: 200 },
  });
});

test.afterAll(async () => {
  await server?.stop();
});

async function from(browser: Browser, address: string) {
  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': address } });
  const page = await context.newPage();
  await page.goto(`${server.url}/login`);
  return { context, page };
}

/**
 * One submission of the form, finished: the alert still shows the previous answer until the next arrives, and
 * React empties the password field once the answer is rendered. Filling the next attempt before that would
 * have the reset wipe it (the server then hears an empty password).
 */
async function attempt(page: Page, password: string) {
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/login'));
  await signIn(page, OWNER, password);
  await answered;
  await expect(page.getByLabel('Password')).toHaveValue('');
}

// The form's own alert: Next's route announcer is an alert too.
const failedMessage = (page: Page) => page.locator('form').getByRole('alert');

test('ten wrong passwords from one address throttle that address, not the owner elsewhere', async ({ browser }) => {
  // Eleven sign-ins through the form on a busy machine; the window wait, if any, comes on top.
  test.setTimeout(120_000);
  await inOneSignInWindow(120_000);
  const attacker = await from(browser, '203.0.113.7');
  for (let i = 0; i < 10; i++) {
    await attempt(attacker.page, `wrong-${i}`);
    await expect(failedMessage(attacker.page)).toHaveText('Invalid email or password');
  }
  // The eleventh try, even with the right password, is refused from that address.
  await attempt(attacker.page, 'demo-password');
  await expect(failedMessage(attacker.page)).toHaveText(/^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
  await expect(attacker.page).toHaveURL(/\/login/);

  // The owner, from another address, signs in at once.
  const owner = await from(browser, '198.51.100.9');
  await signIn(owner.page, OWNER);
  await expect(owner.page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await Promise.all([attacker.context.close(), owner.context.close()]);
});

test('a successful sign-in clears that address’s failures for the account', async ({ browser }) => {
  test.setTimeout(120_000);
  const { context, page } = await from(browser, '192.0.2.44');
  for (let i = 0; i < 9; i++) {
    await attempt(page, `typo-${i}`);
    await expect(failedMessage(page)).toHaveText('Invalid email or password');
  }
  await signIn(page, OWNER);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  // Nine more mistakes would have been the 19th: with the count cleared they are still only mistakes.
  for (let i = 0; i < 9; i++) {
    await attempt(page, `again-${i}`);
    await expect(failedMessage(page)).toHaveText('Invalid email or password');
  }
  await signIn(page, OWNER);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await context.close();
});

test('Sign out everywhere ends the account’s sessions in every browser', async ({ browser }) => {
  const laptop = await from(browser, '198.51.100.20');
  const phone = await from(browser, '198.51.100.21');
  for (const device of [laptop, phone]) {
    await signIn(device.page, OWNER);
    await expect(device.page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  }
  const phoneCookie = (await phone.context.cookies()).find((c) => c.name === 'portal_session')?.value;
  await laptop.page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(laptop.page).toHaveURL(/\/login/);

  // The phone still holds its cookie, but the session behind it is gone.
  expect((await phone.context.cookies()).find((c) => c.name === 'portal_session')?.value).toBe(phoneCookie);
  await phone.page.goto(`${server.url}/keys`);
  await expect(phone.page).toHaveURL(/\/login/);
  // Nothing of those sessions reached the server's log.
  expect(secretsIn(server.output(), [phoneCookie ?? ''])).toEqual([]);
  await Promise.all([laptop.context.close(), phone.context.close()]);
});

import { type Browser, expect, test } from '@playwright/test';
import { startSmtpSink, type SmtpSink } from '../tests/support/smtp-sink';
import { signIn, USERS } from './support/dashboard';
import { freePort, makeTempDir, startServer, type ServerProcess } from './support/servers';

/**
 * Issue 21, point 2, as a person goes through it: "Forgot password?" → the e-mail arrives at a real SMTP
 * server (the test's sink) → its link opens the reset page → a new password → signed in with it; and a
 * password change ends the account's other sessions. The server has its own embedded database and mail
 * server, so changing the demo account's password here touches no session the other specs reuse.
 */
let server: ServerProcess;
let sink: SmtpSink;
const OWNER = USERS.demo.email;
const FIRST_NEW = 'a long fresh password for the e2e';
const SECOND_NEW = 'and another long one for the e2e';

test.beforeAll(async () => {
  sink = await startSmtpSink();
  const port = await freePort();
  server = await startServer({
    name: 'password-reset',
    port,
    database: { PGLITE_DIR: makeTempDir('password-reset') },
    // Links in mail name PUBLIC_URL, never the Host a request came with.
    env: { SMTP_URL: sink.url, PUBLIC_URL: `http://127.0.0.1:${port}`, MAIL_FROM: 'Portal <portal@e2e.example>' },
    ready: { path: '/login', status: 200 },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await sink?.stop();
});

async function newPage(browser: Browser, extraHTTPHeaders?: Record<string, string>) {
  const context = await browser.newContext({ extraHTTPHeaders });
  return { context, page: await context.newPage() };
}

test('forgot password → the link in the e-mail → a new password → signed in with it', async ({ browser }) => {
  // The link is PUBLIC_URL's whatever Host the request named (reset poisoning): the services never see the
  // Host (tests/integration/password-reset.test.ts), and Next.js refuses a server action whose forwarded host
  // is not the page's origin before it runs.
  const { page } = await newPage(browser);
  await page.goto(`${server.url}/login`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Reset your password', level: 1 })).toBeVisible();

  // An unknown address gets the very same answer.
  await page.getByLabel('Email').fill('nobody-here@e2e.example');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const answer = page.getByRole('status');
  await expect(answer).toContainText('If nobody-here@e2e.example is the address of an active account');
  await page.goto(`${server.url}/forgot-password`);
  await page.getByLabel('Email').fill(OWNER.toUpperCase());
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(answer).toContainText(`If ${OWNER} is the address of an active account`);

  await expect.poll(() => sink.to(OWNER).length, { timeout: 30_000 }).toBe(1);
  const [mail] = sink.to(OWNER);
  expect(mail.subject).toBe('Reset your Publisher Portal password');
  expect(mail.html).not.toMatch(/<img[^>]+src=["']?https?:/i);
  expect(sink.to('nobody-here@e2e.example')).toEqual([]);
  const link = mail.links[0];
  expect(link).toMatch(new RegExp(`^${server.url}/reset-password/[A-Za-z0-9_-]+$`));

  const response = await page.goto(link);
  expect(response?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(page.getByRole('heading', { name: 'Choose a new password', level: 1 })).toBeVisible();
  // Precise refusals, tied to their fields.
  await page.getByLabel('New password', { exact: true }).fill('qwerty123456');
  await page.getByLabel('New password again').fill('qwerty123456');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByLabel('New password', { exact: true })).toHaveAccessibleDescription(/commonly used/);
  await page.getByLabel('New password', { exact: true }).fill(FIRST_NEW);
  await page.getByLabel('New password again').fill(FIRST_NEW);
  await page.getByRole('button', { name: 'Set new password' }).click();

  await expect(page).toHaveURL(/\/login\?reset=done$/);
  await expect(page.getByRole('status').filter({ hasText: 'Your password was changed' })).toBeVisible();
  await signIn(page, OWNER, FIRST_NEW);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  // The link was for one use: opened again, it says so and offers a new one.
  await page.goto(link);
  await expect(page.getByText('This link no longer works.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
  // And a notice of the reset went out.
  await expect
    .poll(() => sink.to(OWNER).map((m) => m.subject), { timeout: 30_000 })
    .toContain('Your Publisher Portal password was reset');
});

test('changing the password in Settings → Security ends the other session and keeps this one', async ({ browser }) => {
  const here = await newPage(browser);
  const elsewhere = await newPage(browser);
  for (const { page } of [here, elsewhere]) {
    await page.goto(`${server.url}/login`);
    await signIn(page, OWNER, FIRST_NEW);
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  }

  const { page } = here;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  const tabs = page.getByRole('navigation', { name: 'Settings' });
  await expect(tabs.getByRole('link', { name: 'Security' })).toHaveAttribute('aria-current', 'page');
  await expect(tabs.getByRole('link', { name: 'Activity' })).toHaveAttribute('href', '/settings/activity');

  await page.getByLabel('Current password').fill('not my password at all');
  await page.getByLabel('New password', { exact: true }).fill(SECOND_NEW);
  await page.getByLabel('New password again').fill(SECOND_NEW);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByLabel('Current password')).toHaveAccessibleDescription('This is not your current password.');

  await page.getByLabel('Current password').fill(FIRST_NEW);
  await page.getByLabel('New password', { exact: true }).fill(SECOND_NEW);
  await page.getByLabel('New password again').fill(SECOND_NEW);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password was changed.')).toBeVisible();

  // This session stays; the other one is over.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await elsewhere.page.reload();
  await expect(elsewhere.page).toHaveURL(/\/login/);
  await expect
    .poll(() => sink.to(OWNER).map((m) => m.subject), { timeout: 30_000 })
    .toContain('Your Publisher Portal password was changed');
});

test('an invitation arrives by e-mail; its link sets the password and signs the publisher in', async ({ browser }) => {
  const tag = Date.now().toString(36);
  const email = `invited-${tag}@e2e.example`;
  const admin = await newPage(browser);
  await admin.page.goto(`${server.url}/login`);
  await signIn(admin.page, USERS.admin.email);
  await admin.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Publishers' }).click();
  await admin.page.getByRole('button', { name: 'New publisher' }).click();
  const dialog = admin.page.getByRole('dialog', { name: 'New publisher' });
  await dialog.getByLabel('Name').fill(`Invited ${tag}`);
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByRole('button', { name: 'Create and invite' }).click();
  await expect(admin.page.getByRole('dialog', { name: 'Publisher invited' })).toBeVisible();

  await expect.poll(() => sink.to(email).length, { timeout: 30_000 }).toBe(1);
  const [mail] = sink.to(email);
  expect(mail.text).toContain(mail.links[0]);
  expect(mail.html).not.toMatch(/<img[^>]+src=["']?https?:/i);
  expect(mail.links[0]).toMatch(new RegExp(`^${server.url}/invitation/[A-Za-z0-9_-]+$`));

  const { page } = await newPage(browser);
  await page.goto(mail.links[0]);
  await expect(page.getByText(email)).toBeVisible();
  await page.getByLabel('New password').fill(FIRST_NEW);
  await page.getByLabel('Type it again').fill(FIRST_NEW);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
});

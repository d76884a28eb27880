import { type Browser, expect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { startSmtpSink, type SmtpSink } from '../tests/support/smtp-sink';
import { expectNoViolations } from './support/axe';
import { signIn, USERS } from './support/dashboard';
import { freePort, makeTempDir, startServer, type ServerProcess } from './support/servers';

/**
 * Issue 22, point 7, as people go through it: the demo Owner invites someone by e-mail → the invitation arrives
 * at a real SMTP server (the test's sink) → its link makes them an Admin with a password → they turn on
 * two-factor sign-in with the secret shown → sign in again with a code computed from it → and with a recovery
 * code → the Owner removes them and their session ends. Its own server, database and mail server.
 */
let server: ServerProcess;
let sink: SmtpSink;
const OWNER = USERS.demo.email;
const PASSWORD = 'the new member’s long passphrase';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  sink = await startSmtpSink();
  const port = await freePort();
  server = await startServer({
    name: 'team-two-factor',
    port,
    database: { PGLITE_DIR: makeTempDir('team-two-factor') },
    env: { SMTP_URL: sink.url, PUBLIC_URL: `http://127.0.0.1:${port}`, MAIL_FROM: 'Portal <portal@e2e.example>' },
    ready: { path: '/login', status: 200 },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await sink?.stop();
});

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

/** The sign-in form's first step, for someone with two-factor sign-in: it leads to the code page. */
async function password(page: Page, email: string) {
  await page.goto(`${server.url}/login`);
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in', level: 1 })).toBeVisible();
}

async function code(page: Page, value: string) {
  await page.getByLabel('Code').fill(value);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
}

/** Settings → Security: turn two-factor sign-in on (a wrong code first), as from an authenticator app. */
async function turnOnTwoFactor(page: Page) {
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(page.getByRole('img', { name: 'QR code of the two-factor secret' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  await page.getByLabel('Code from your app').fill('000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('This code is not right')).toBeVisible();
  await page.getByLabel('Code from your app').fill(totp.generate());
  await page.getByRole('button', { name: 'Confirm' }).click();
  const listed = page.getByTestId('recovery-codes').getByRole('listitem');
  await expect(listed).toHaveCount(10);
  const codes = (await listed.allTextContents()).map((c) => c.trim());
  return { totp, codes };
}

/** The demo Owner, signed in, invites `email` with `role` from Settings → Members; the invitation is e-mailed. */
async function ownerInvites(browser: Browser, email: string, role: 'admin' | 'finance') {
  const owner = await newPage(browser);
  await owner.page.goto(`${server.url}/login`);
  await signIn(owner.page, OWNER);
  await expect(owner.page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await owner.page.goto(`${server.url}/settings/members`);
  await owner.page.getByLabel('E-mail').fill(email);
  await owner.page.getByLabel('Role of the new member').selectOption(role);
  await owner.page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(owner.page.getByRole('status').filter({ hasText: `Invitation sent to ${email}` })).toBeVisible();
  return owner;
}

test('invite by e-mail → join → two-factor on → sign in with a code and with a recovery code → removed', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const email = `e2e-team-${Date.now().toString(36)}@example.com`;
  const owner = await ownerInvites(browser, email, 'admin');

  // The e-mail, at the SMTP server: plain text and HTML, no remote image, the link on PUBLIC_URL.
  await expect.poll(() => sink.to(email).length, { timeout: 30_000 }).toBe(1);
  const [mail] = sink.to(email);
  expect(mail.subject).toBe('Join Demo Games Ltd on the Publisher Portal');
  expect(mail.text).toContain('as Admin');
  expect(mail.html).not.toMatch(/<img[^>]+src=["']?https?:/i);
  expect(mail.links[0]).toMatch(new RegExp(`^${server.url}/invitation/[A-Za-z0-9_-]+$`));

  const member = await newPage(browser);
  await member.page.goto(mail.links[0]);
  await member.page.getByLabel('Your name').fill('Ada Member');
  await member.page.getByLabel('New password').fill(PASSWORD);
  await member.page.getByLabel('Type it again').fill(PASSWORD);
  await member.page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(member.page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  // An Admin manages keys: the navigation says so.
  await expect(
    member.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }),
  ).toBeVisible();

  // Two-factor sign-in on, with the secret shown as text, as an authenticator app would read it.
  await member.page.goto(`${server.url}/settings/security`);
  const { totp, codes } = await turnOnTwoFactor(member.page);

  // A new sign-in asks for the code; the next step's code lets them in (the one just used never works twice).
  await member.context.clearCookies();
  await password(member.page, email);
  await code(member.page, totp.generate({ timestamp: Date.now() + 30_000 }));
  await expect(member.page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  // The code page is accessible, also with a refused code (axe).
  await member.context.clearCookies();
  await password(member.page, email);
  await expectNoViolations(member.page, '/login/two-factor');
  await code(member.page, '123456');
  await expect(member.page.getByRole('main').getByRole('alert')).not.toBeEmpty();
  await expectNoViolations(member.page, '/login/two-factor with a refused code');

  // And once more with a recovery code, which is then used up (the owner sees it in the activity log).
  await member.context.clearCookies();
  await password(member.page, email);
  await code(member.page, codes[0]);
  await expect(member.page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await member.page.goto(`${server.url}/settings/security`);
  await expect(member.page.getByText('9 recovery codes left')).toBeVisible();
  // Where they are signed in: this browser, marked.
  await expect(member.page.getByTestId('session-row').filter({ hasText: 'This browser' })).toHaveCount(1);

  // Removed by the Owner: the member's next page sends them to sign in.
  await owner.page.reload();
  const row = owner.page.getByTestId('member-row').filter({ hasText: email });
  await expect(row.getByText('On', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Remove Ada Member' }).click();
  await owner.page.getByRole('alertdialog').getByRole('button', { name: 'Remove member' }).click();
  await expect(owner.page.getByRole('status').filter({ hasText: 'was removed' })).toBeVisible();
  await member.page.goto(`${server.url}/`);
  await expect(member.page).toHaveURL(/\/login/);

  await owner.page.goto(`${server.url}/settings/activity`);
  for (const kind of ['Two-factor sign-in turned on', 'Recovery code used', 'Member removed']) {
    await expect(owner.page.getByRole('table').getByText(kind).first()).toBeVisible();
  }
});

test('an Owner requires two-factor sign-in: a member without it is led to set it up before anything else', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const email = `e2e-required-${Date.now().toString(36)}@example.com`;
  const owner = await ownerInvites(browser, email, 'finance');
  await expect.poll(() => sink.to(email).length, { timeout: 30_000 }).toBe(1);
  const link = sink.to(email)[0].links[0];

  const member = await newPage(browser);
  await member.page.goto(link);
  await member.page.getByLabel('New password').fill(PASSWORD);
  await member.page.getByLabel('Type it again').fill(PASSWORD);
  await member.page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(member.page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  await owner.page.getByText('Require two-factor sign-in for every member').click();
  await expect(owner.page.getByRole('status').filter({ hasText: 'is now required' })).toBeVisible();

  // The member's next page, whichever, is the setup; the reports wait until it is done.
  for (const path of ['/', '/countries', '/settings/members']) {
    await member.page.goto(`${server.url}${path}`);
    await expect(member.page).toHaveURL(/\/settings\/security\?setup=two-factor$/);
  }
  await expect(member.page.getByRole('status').filter({ hasText: 'requires two-factor sign-in' })).toBeVisible();
  await turnOnTwoFactor(member.page);
  await member.page.goto(`${server.url}/countries`);
  await expect(member.page.getByRole('heading', { name: 'Countries', level: 1 })).toBeVisible();
  // Now required, it cannot be turned off.
  await member.page.goto(`${server.url}/settings/security`);
  await expect(member.page.getByText('An account of yours requires it, so it stays on.')).toBeVisible();
  await expect(member.page.getByRole('button', { name: 'Turn off' })).toHaveCount(0);

  // The Owner, who has no second factor either, is led the same way.
  await owner.page.goto(`${server.url}/`);
  await expect(owner.page).toHaveURL(/\/settings\/security\?setup=two-factor$/);
});

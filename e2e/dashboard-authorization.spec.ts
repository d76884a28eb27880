import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Browser, Page, Request, Response } from '@playwright/test';
import { DEMO_IDS } from '../db/seed-data';
import {
  apiGet,
  createKeyAs,
  createKeyInUi,
  type DemoUser,
  expect,
  keyRow,
  test,
  uniqueLabel,
  waitForHydration,
} from './support/dashboard';
import { ROOT } from './support/servers';

/**
 * Issue 9, point 8, and issue 22, point 7, for the dashboard: {signed out, publisher (the account's Owner),
 * other publisher, admin, Finance member, Viewer of one site} × every page, the
 * route handler and every server action, with the answer each must get. "Other publisher" is the rival
 * account acting on the demo account's sites and keys: by the URL, or by a server action whose payload is
 * rewritten on its way (a server action is a public endpoint). The sign-in, sign-out and "sign out
 * everywhere" actions act only on the caller's own session: e2e/dashboard-auth.spec.ts and e2e/signin.spec.ts.
 * The API's matrix is tests/integration/authorization-api.test.ts. Issue 39, point 2, at the end: the operator's
 * account's Admin, Finance and Viewer × the operator's pages, "view as" and the operator's server actions.
 */
type Visitor = 'signedOut' | 'publisher' | 'otherPublisher' | 'admin' | 'finance' | 'viewer';
const ACCOUNT: Record<Visitor, DemoUser | null> = {
  signedOut: null,
  publisher: 'demo',
  otherPublisher: 'rival',
  admin: 'admin',
  // Issue 22: members of the demo publisher's account by role; the Viewer reads Sky Hopper only.
  finance: 'finance',
  viewer: 'viewer',
};
const VISITORS = Object.keys(ACCOUNT) as Visitor[];
const DEMO_SITE = DEMO_IDS.sites.skyHopper;
/** A demo site the Viewer may not read. */
const OTHER_DEMO_SITE = DEMO_IDS.sites.mergeKingdom;
const AS_DEMO = `as=${DEMO_IDS.users.demo}`;

/**
 * What a visitor sees at a URL: the page (by its heading), the sign-in page, the page's own refusal of its
 * filters, the refusal of `?as=` (only admins view another publisher's dashboard), or an admin's choice of
 * publisher (admins have no sites of their own).
 */
type Outcome =
  | { heading: string }
  | 'sign in'
  | 'not allowed'
  | 'not yours'
  | 'choose'
  | 'not found'
  /** The page, with its refusal in place of what the member's role does not grant. */
  | { heading: string; refusal: string };
const KEYS_REFUSED = { heading: 'API keys', refusal: 'Owners and Admins create and revoke its API keys' };
const DASHBOARD_PAGES = [
  ['/', 'Overview'],
  ['/countries', 'Countries'],
  ['/sites', 'Sites'],
  ['/keys', 'API keys'],
  ['/alerts', 'Alerts'],
] as const;
const PAGES: { path: string; expected: Record<Visitor, Outcome> }[] = [
  ...DASHBOARD_PAGES.map(([path, heading]) => ({
    path,
    expected: {
      signedOut: 'sign in',
      publisher: { heading },
      otherPublisher: { heading },
      admin: path === '/keys' ? { heading } : 'choose',
      finance: path === '/keys' ? KEYS_REFUSED : { heading },
      viewer: path === '/keys' ? KEYS_REFUSED : { heading },
    } as const,
  })),
  // A demo site the Viewer may not read: every other member reads it.
  ...['/', '/countries'].map((path) => ({
    path: `${path}?sites=${OTHER_DEMO_SITE}`,
    expected: {
      signedOut: 'sign in',
      publisher: { heading: path === '/' ? 'Overview' : 'Countries' },
      otherPublisher: 'not allowed',
      admin: 'choose',
      finance: { heading: path === '/' ? 'Overview' : 'Countries' },
      viewer: 'not allowed',
    } as const,
  })),
  // Another account's site in the URL: refused, without saying whether it exists.
  ...['/', '/countries'].map((path) => ({
    path: `${path}?sites=${DEMO_SITE}`,
    expected: {
      signedOut: 'sign in',
      publisher: { heading: path === '/' ? 'Overview' : 'Countries' },
      otherPublisher: 'not allowed',
      admin: 'choose',
      finance: { heading: path === '/' ? 'Overview' : 'Countries' },
      viewer: { heading: path === '/' ? 'Overview' : 'Countries' },
    } as const,
  })),
  // The demo publisher's account named by `?as=`: its own members act there with their roles, an admin views
  // it read-only, another publisher is refused.
  ...DASHBOARD_PAGES.map(([path, heading]) => ({
    path: `${path}?${AS_DEMO}&sites=${DEMO_SITE}`,
    expected: {
      signedOut: 'sign in',
      publisher: { heading },
      otherPublisher: 'not yours',
      admin: { heading },
      finance: path === '/keys' ? KEYS_REFUSED : { heading },
      viewer: path === '/keys' ? KEYS_REFUSED : { heading },
    } as const,
  })),
  // Settings: Members, Activity and Webhooks are the Owners' and Admins'; a Finance member or Viewer is told so.
  ...(
    [
      ['/settings/members', 'Members are managed by', 'ask one of them for a change'],
      ['/settings/activity', 'Activity', 'The account’s activity is shown to its Owners and Admins'],
      ['/settings/webhooks', 'Webhooks', 'The account’s Owners and Admins add and remove its webhooks'],
    ] as const
  ).map(([path, , refusal]) => ({
    path,
    expected: {
      signedOut: 'sign in',
      publisher: { heading: 'Settings' },
      otherPublisher: { heading: 'Settings' },
      // Webhooks are a publisher's: an admin first chooses whose.
      admin:
        path === '/settings/members'
          ? { heading: 'Settings' }
          : path === '/settings/webhooks'
            ? 'choose'
            : { heading: 'Activity' },
      finance: { heading: 'Settings', refusal },
      viewer: { heading: 'Settings', refusal },
    } as const,
  })),
  // Payments are the Owners' and Finance members' (and an admin's viewing the account); a Viewer is told so.
  ...['/payments', `/payments?${AS_DEMO}`].map((path) => ({
    path,
    expected: {
      signedOut: 'sign in',
      publisher: { heading: 'Payments' },
      otherPublisher: path === '/payments' ? { heading: 'Payments' } : 'not yours',
      admin: path === '/payments' ? 'choose' : { heading: 'Payments' },
      finance: { heading: 'Payments' },
      viewer: { heading: 'Payments', refusal: 'Statements and payments are for the account’s Owners and Finance' },
    } as const,
  })),
  // Admins only: to a publisher the pages do not exist.
  ...['Publishers', 'People', 'Site review', 'Activity', 'Payouts'].map((heading) => ({
    path: {
      Publishers: '/admin/publishers',
      People: '/admin/people',
      'Site review': '/admin/sites',
      Activity: '/admin/activity',
      Payouts: '/admin/payouts',
    }[heading]!,
    expected: {
      signedOut: 'sign in' as const,
      publisher: 'not found' as const,
      otherPublisher: 'not found' as const,
      admin: { heading },
      finance: 'not found' as const,
      viewer: 'not found' as const,
    },
  })),
  // An invitation link is for whoever holds it, signed in or not; an unknown one opens nothing.
  {
    path: '/invitation/not-a-real-invitation-token',
    expected: {
      signedOut: { heading: 'This invitation link no longer works' },
      publisher: { heading: 'This invitation link no longer works' },
      otherPublisher: { heading: 'This invitation link no longer works' },
      admin: { heading: 'This invitation link no longer works' },
      finance: { heading: 'This invitation link no longer works' },
      viewer: { heading: 'This invitation link no longer works' },
    },
  },
  {
    path: '/docs',
    expected: {
      signedOut: { heading: 'API docs' },
      publisher: { heading: 'API docs' },
      otherPublisher: { heading: 'API docs' },
      admin: { heading: 'API docs' },
      finance: { heading: 'API docs' },
      viewer: { heading: 'API docs' },
    },
  },
];

/** Checks what `page` shows after `response`, the answer to going to a URL, against `outcome`. */
async function expectOutcome(page: Page, response: Response | null, outcome: Outcome, at: string) {
  if (outcome === 'sign in') {
    await expect(page, at).toHaveURL(/\/login(\?next=|$)/);
    await expect(page.getByRole('heading', { name: 'Sign in to your account' }), at).toBeVisible();
  } else if (outcome === 'not found') {
    expect(response!.status(), at).toBe(404);
    await expect(page.getByText('Sky Hopper'), at).toHaveCount(0);
  } else if (outcome === 'not allowed' || outcome === 'not yours') {
    expect(response!.status(), at).toBe(200);
    const refusal = outcome === 'not allowed' ? 'These filters can’t be shown' : 'This dashboard can’t be shown';
    await expect(page.getByRole('alert').filter({ hasText: refusal }), at).toBeVisible();
    await expect(page.getByText('Sky Hopper'), at).toHaveCount(0);
  } else if (outcome === 'choose') {
    expect(response!.status(), at).toBe(200);
    const publishers = page.getByRole('list', { name: 'Publishers' });
    await expect(publishers, at).toContainText('demo@example.com');
    await expect(publishers, at).toContainText('rival@example.com');
    await expect(page.getByText('Sky Hopper'), at).toHaveCount(0);
  } else {
    expect(response!.status(), at).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: outcome.heading }), at).toBeVisible();
    if ('refusal' in outcome) await expect(page.getByText(outcome.refusal), at).toBeVisible();
  }
}

test.describe('every page × every visitor', () => {
  // One browser context per visitor for all its pages: a fresh context per page and visitor (138 of them) made
  // this the suite's slowest file. Every page is a full navigation, so nothing carries over but the session.
  for (const visitor of VISITORS) {
    test(visitor, async ({ openAs }) => {
      test.setTimeout(PAGES.length * 20_000);
      const page = await openAs(ACCOUNT[visitor]);
      for (const { path, expected } of PAGES) {
        await expectOutcome(page, await page.goto(path), expected[visitor], `${visitor} at ${path}`);
      }
    });
  }
});

test('the CSV export (route handler) × every visitor, for its own sites and another account’s', async ({ openAs }) => {
  test.setTimeout(120_000);
  const expected: Record<Visitor, [own: number, demoSite: number, asDemo: number]> = {
    signedOut: [307, 307, 307],
    // `?as=` of their own account is theirs.
    publisher: [200, 200, 200],
    otherPublisher: [200, 403, 403],
    // An admin downloads a publisher's reports from their dashboard (?as=), and has none of their own.
    admin: [400, 400, 200],
    // Members of the demo account: their own account is the demo one, Sky Hopper is the Viewer's site.
    finance: [200, 200, 200],
    viewer: [200, 200, 200],
  };
  for (const visitor of VISITORS) {
    const { request } = (await openAs(ACCOUNT[visitor])).context();
    const own = await request.get('/export/countries', { maxRedirects: 0 });
    const demo = await request.get(`/export/countries?sites=${DEMO_SITE}`, { maxRedirects: 0 });
    const viewed = await request.get(`/export/countries?sites=${DEMO_SITE}&${AS_DEMO}`, { maxRedirects: 0 });
    expect([own.status(), demo.status(), viewed.status()], visitor).toEqual(expected[visitor]);
    if (visitor === 'signedOut') expect(own.headers().location).toMatch(/\/login\?next=/);
    if (demo.status() === 403) expect(await demo.text()).not.toContain('Sky Hopper');
  }
});

test('a statement’s files (route handler) × every visitor, for its own account and the demo one', async ({
  openAs,
}) => {
  test.setTimeout(120_000);
  const last = new Date();
  last.setUTCDate(0); // the last day of the month before, which the seed closed
  const file = `/payments/${last.toISOString().slice(0, 7)}/statement.csv`;
  const expected: Record<Visitor, [own: number, asDemo: number]> = {
    // To the sign-in page, as every dashboard URL.
    signedOut: [307, 307],
    publisher: [200, 200],
    otherPublisher: [200, 403],
    admin: [400, 200],
    finance: [200, 200],
    viewer: [403, 403],
  };
  for (const visitor of VISITORS) {
    const { request } = (await openAs(ACCOUNT[visitor])).context();
    const own = await request.get(file, { maxRedirects: 0 });
    const demo = await request.get(`${file}?${AS_DEMO}`, { maxRedirects: 0 });
    expect([own.status(), demo.status()], visitor).toEqual(expected[visitor]);
    if (visitor === 'signedOut') expect(own.headers().location).toMatch(/\/login\?next=/);
    // Each 200 is the account's own: its name in the file, never the other's.
    if (demo.status() === 200) expect(await demo.text(), visitor).toContain('Demo Games Ltd');
    if (visitor === 'otherPublisher') expect(await own.text()).not.toContain('Demo Games Ltd');
  }
});

/** Rewrites the next server action sent from `page` with `rewrite` (its arguments, as sent). */
async function rewriteNextAction(page: Page, rewrite: (args: unknown[]) => unknown[], path = '/keys') {
  const sent: Request[] = [];
  await page.route(`**${path}`, async (route) => {
    const request = route.request();
    if (request.method() !== 'POST' || !request.headers()['next-action'] || sent.length > 0) return route.continue();
    sent.push(request);
    await route.continue({ postData: JSON.stringify(rewrite(JSON.parse(request.postData() ?? '[]'))) });
  });
  return sent;
}

/** The status of a server action `sent` from a page, replayed with `args` and no session. */
async function replaySignedOut(request: APIRequestContext, sent: Request, args: unknown[]) {
  const replay = await request.post('/keys', {
    headers: { 'Next-Action': sent.headers()['next-action'], 'Content-Type': 'text/plain;charset=UTF-8' },
    data: JSON.stringify(args),
    maxRedirects: 0,
  });
  return replay.status();
}

/**
 * A key of the demo account (with its id, from the API's list), and the rival pressing `button` on a key of
 * its own, with the demo key's id put in its place in the server action that follows.
 */
async function rivalTargetsDemoKey(
  browser: Browser,
  openAs: (user: DemoUser | null) => Promise<Page>,
  button: 'Revoke' | 'Rotate',
) {
  const signedOut = (await openAs(null)).context().request;
  const created = await createKeyAs(browser, 'demo');
  const list = await apiGet<{ id: string; label: string }[]>(signedOut, created.key, '/api/v1/api-keys');
  const demoKey = { ...created, id: list.body.find((k) => k.label === created.label)!.id };
  const rival = await openAs('rival');
  const own = await createKeyInUi(rival);
  await waitForHydration(rival);
  // The action's first argument names the account (the page's `?as=`): left as sent, the rival's own.
  const sent = await rewriteNextAction(rival, ([account]) => [account, demoKey.id]);
  await keyRow(rival, own.label)
    .getByRole('button', { name: `${button} ${own.label}` })
    .click();
  return { signedOut, demoKey, rival, own, sent };
}

test.describe('server actions', () => {
  test('publishers: a publisher or a signed-out caller replaying an operator’s row action changes nothing', async ({
    browser,
    openAs,
  }) => {
    // A publisher account to act on, made over the API with an admin's key.
    const signedOut = (await openAs(null)).context().request;
    const { key } = await createKeyAs(browser, 'admin');
    const email = `e2e-target-${Date.now().toString(36)}@example.com`;
    const made = await signedOut.post('/api/v1/admin/publishers', {
      headers: { 'X-Api-Key': key },
      data: { email, name: 'E2E target' },
    });
    expect(made.status()).toBe(200);
    const target = ((await made.json()) as { id: string }).id;

    // The admin's "Resend invitation" on it, to learn the action's id as the browser sends it.
    const admin = await openAs('admin');
    await admin.goto(`/admin/publishers?Search=${encodeURIComponent(email)}`);
    await waitForHydration(admin);
    const sent = admin.waitForRequest((r) => r.method() === 'POST' && !!r.headers()['next-action']);
    await admin.getByRole('button', { name: 'Resend invitation E2E target' }).click();
    const actionId = (await sent).headers()['next-action'];

    const demo = (await openAs('demo')).context().request;
    for (const caller of [demo, signedOut]) {
      const replay = await caller.post('/admin/publishers', {
        headers: { 'Next-Action': actionId, 'Content-Type': 'text/plain;charset=UTF-8' },
        data: JSON.stringify(['deactivate', target]),
        maxRedirects: 0,
      });
      expect(replay.status()).not.toBe(500);
    }
    const listed = await apiGet<{ data: { status: string }[] }>(
      signedOut,
      key,
      `/api/v1/admin/publishers?Filter=id==${target}`,
    );
    expect(listed.body.data.map((p) => p.status)).toEqual(['invited']);
  });

  test('revoke: another publisher cannot revoke a key of this account, nor can a signed-out caller', async ({
    browser,
    openAs,
  }) => {
    const { signedOut, demoKey, rival, sent } = await rivalTargetsDemoKey(browser, openAs, 'Revoke');
    await rival.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect(rival.getByRole('status').filter({ hasText: /no API key/i })).toBeAttached();
    expect(sent).toHaveLength(1);

    // The same call, replayed without a session, is sent to sign in.
    expect(await replaySignedOut(signedOut, sent[0], [null, demoKey.id])).toBe(307);

    // The demo key still works.
    const still = await apiGet(signedOut, demoKey.key, '/api/v1/sites');
    expect(still.status).toBe(200);
  });

  test('rotate: another publisher cannot rotate a key of this account, nor can a signed-out caller', async ({
    browser,
    openAs,
  }) => {
    const { signedOut, demoKey, rival, own, sent } = await rivalTargetsDemoKey(browser, openAs, 'Rotate');
    const dialog = rival.getByRole('dialog', { name: `Rotate “${own.label}”?` });
    await dialog.getByRole('button', { name: 'Create replacement' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(`No API key with id ${demoKey.id}.`);
    await expect(rival.getByTestId('new-api-key')).toHaveCount(0);
    expect(sent).toHaveLength(1);
    expect(await replaySignedOut(signedOut, sent[0], [null, demoKey.id])).toBe(307);

    // No replacement on either account; the demo key still works.
    const keys = await apiGet<{ label: string }[]>(signedOut, demoKey.key, '/api/v1/api-keys');
    expect(keys.body.filter((k) => k.label === demoKey.label)).toHaveLength(1);
    await rival.reload();
    await expect(keyRow(rival, own.label)).toHaveCount(1);
    expect((await apiGet(signedOut, demoKey.key, '/api/v1/sites')).status).toBe(200);
  });

  test('create: a publisher cannot create a key for another account (an operator can: dashboard-keys.spec.ts)', async ({
    openAs,
  }) => {
    const demo = await openAs('demo');
    await demo.goto('/keys');
    await waitForHydration(demo);
    const sent = await rewriteNextAction(demo, ([account, fields]) => [
      account,
      { ...(fields as object), forUserId: DEMO_IDS.users.rival },
    ]);
    const label = uniqueLabel('for rival');
    await demo.getByRole('button', { name: 'Create key', exact: true }).click();
    const dialog = demo.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Label').fill(label);
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      "Creating keys for another account is for the platform's operators only.",
    );
    await expect(demo.getByTestId('new-api-key')).toHaveCount(0);
    expect(sent).toHaveLength(1);

    const rival = await openAs('rival');
    await rival.goto('/keys');
    await expect(keyRow(rival, label)).toHaveCount(0);
  });

  test('sites: another publisher cannot delete or review a site of this account', async ({ openAs }) => {
    // The rival adds a site of its own, then presses its Delete with the demo site's id put in its place.
    const rival = await openAs('rival');
    await rival.goto('/sites?view=review');
    await waitForHydration(rival);
    const name = uniqueLabel('rival site');
    await rival.getByRole('button', { name: 'Add site' }).click();
    const dialog = rival.getByRole('dialog', { name: 'Add a site' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('URL').fill('https://rival-e2e.example.com');
    await dialog.getByLabel('Framework').fill('unity');
    await dialog.getByRole('button', { name: 'Add site' }).click();
    await expect(dialog).toBeHidden();
    const sent = await rewriteNextAction(rival, ([account]) => [account, DEMO_SITE, 'Sky Hopper'], '/sites*');
    await rival.getByRole('button', { name: `Delete ${name}` }).click();
    await rival.getByRole('alertdialog').getByRole('button', { name: 'Delete site' }).click();
    await expect(rival.getByRole('status').filter({ hasText: `No site with id ${DEMO_SITE}.` })).toBeAttached();
    expect(sent).toHaveLength(1);
    const signedOut = (await openAs(null)).context().request;
    const replay = await signedOut.post('/sites', {
      headers: { 'Next-Action': sent[0].headers()['next-action'], 'Content-Type': 'text/plain;charset=UTF-8' },
      data: JSON.stringify([null, DEMO_SITE, 'Sky Hopper']),
      maxRedirects: 0,
    });
    expect(replay.status()).toBe(307);

    // The demo site is still there; the rival's own is deleted for real this time.
    const demo = await openAs('demo');
    await demo.goto('/sites?view=review');
    await expect(demo.getByTestId('site-status').filter({ hasText: 'Sky Hopper' })).toHaveCount(1);
    await rival.unrouteAll();
    await rival.reload();
    await rival.getByRole('button', { name: `Delete ${name}` }).click();
    await rival.getByRole('alertdialog').getByRole('button', { name: 'Delete site' }).click();
    await expect(rival.getByRole('button', { name: `Delete ${name}` })).toHaveCount(0);
  });

  test('roles: Finance and a Viewer cannot create keys, and naming another account in an action is refused', async ({
    browser,
    openAs,
  }) => {
    // The Owner's "Create key", to learn the action's id and its arguments as the browser sends them.
    const owner = await openAs('demo');
    await owner.goto('/keys');
    await waitForHydration(owner);
    const sent = owner.waitForRequest((r) => r.method() === 'POST' && !!r.headers()['next-action']);
    await owner.getByRole('button', { name: 'Create key', exact: true }).click();
    const dialog = owner.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Label').fill(uniqueLabel('owner'));
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const request = await sent;
    const [, fields] = JSON.parse(request.postData() ?? '[]') as [unknown, object];

    const label = uniqueLabel('not allowed');
    const replay = async (visitor: DemoUser, account: string | null) => {
      const { request: caller } = (await openAs(visitor)).context();
      const answer = await caller.post('/keys', {
        headers: { 'Next-Action': request.headers()['next-action'], 'Content-Type': 'text/plain;charset=UTF-8' },
        data: JSON.stringify([account, { ...fields, label }]),
        maxRedirects: 0,
      });
      expect(answer.status(), visitor).toBe(200);
      return answer.text();
    };
    for (const visitor of ['finance', 'viewer'] as const) {
      expect(await replay(visitor, null), visitor).toContain('needs the Owner or Admin role');
      expect(await replay(visitor, DEMO_IDS.users.demo), visitor).toContain('needs the Owner or Admin role');
    }
    // The rival names the demo account: not theirs, and only operators view others' accounts.
    expect(await replay('rival', DEMO_IDS.users.demo)).toContain("dashboard is for the platform's operators only");

    const { key } = await createKeyAs(browser, 'demo');
    const signedOut = (await openAs(null)).context().request;
    const keys = await apiGet<{ label: string }[]>(signedOut, key, '/api/v1/api-keys');
    expect(keys.body.filter((k) => k.label === label)).toEqual([]);
  });
});

// ---- Issue 39, point 2: the operator's account's members hold the platform powers their role grants ----------

/** Members of the operator's account (admin@example.com's, its Owner being the `admin` visitor above). */
const OPERATORS = ['opsAdmin', 'opsFinance', 'opsViewer'] as const satisfies readonly DemoUser[];
type Operator = (typeof OPERATORS)[number];
/** Who holds each power (lib/access/roles.ts): `operate` is the Owners' and Admins', `pay` the Owners' and Finance's. */
const HOLDS: Record<'operate' | 'pay', readonly Operator[]> = { operate: ['opsAdmin'], pay: ['opsFinance'] };
const ROLE_OF: Record<Operator, string> = { opsAdmin: 'Admin', opsFinance: 'Finance', opsViewer: 'Viewer' };
const OPERATOR_LINKS = { operate: ['Publishers', 'People', 'Site review', 'Activity'], pay: ['Payouts'] };

/** A page for whoever holds `power`; to the others it does not exist. */
const grantedPage = (power: 'operate' | 'pay', heading: string): Record<Operator, Outcome> =>
  Object.fromEntries(OPERATORS.map((o) => [o, HOLDS[power].includes(o) ? { heading } : 'not found'])) as Record<
    Operator,
    Outcome
  >;
const ACTIVITY_REFUSED = { heading: 'Settings', refusal: 'The account’s activity is shown to its Owners and Admins' };
const OPERATOR_PAGES: { path: string; expected: Record<Operator, Outcome> }[] = [
  { path: '/admin/publishers', expected: grantedPage('operate', 'Publishers') },
  { path: '/admin/people', expected: grantedPage('operate', 'People') },
  { path: '/admin/sites', expected: grantedPage('operate', 'Site review') },
  { path: '/admin/activity', expected: grantedPage('operate', 'Activity') },
  { path: '/admin/payouts', expected: grantedPage('pay', 'Payouts') },
  // "View as" is `operate`: the others are refused it, and their own account (the operator's) has no sites.
  {
    path: `/?${AS_DEMO}`,
    expected: { opsAdmin: { heading: 'Overview' }, opsFinance: 'not yours', opsViewer: 'not yours' },
  },
  {
    path: `/payments?${AS_DEMO}`,
    expected: { opsAdmin: { heading: 'Payments' }, opsFinance: 'not yours', opsViewer: 'not yours' },
  },
  {
    path: '/',
    expected: { opsAdmin: 'choose', opsFinance: { heading: 'Overview' }, opsViewer: { heading: 'Overview' } },
  },
  { path: '/keys', expected: { opsAdmin: { heading: 'API keys' }, opsFinance: KEYS_REFUSED, opsViewer: KEYS_REFUSED } },
  {
    path: '/settings/activity',
    expected: { opsAdmin: { heading: 'Activity' }, opsFinance: ACTIVITY_REFUSED, opsViewer: ACTIVITY_REFUSED },
  },
];

test.describe('the operator’s pages × the operator account’s members', () => {
  for (const visitor of OPERATORS) {
    test(visitor, async ({ openAs }) => {
      test.setTimeout((OPERATOR_PAGES.length + 1) * 20_000);
      const page = await openAs(visitor);
      for (const { path, expected } of OPERATOR_PAGES) {
        await expectOutcome(page, await page.goto(path), expected[visitor], `${visitor} at ${path}`);
      }
      // The navigation offers exactly the operator's pages the role grants.
      await page.goto('/settings');
      const links = (['operate', 'pay'] as const).flatMap((power) =>
        HOLDS[power].includes(visitor) ? OPERATOR_LINKS[power] : [],
      );
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const name of [...OPERATOR_LINKS.operate, ...OPERATOR_LINKS.pay]) {
        await expect(nav.getByRole('link', { name, exact: true }), `${visitor}: ${name}`).toHaveCount(
          links.includes(name) ? 1 : 0,
        );
      }
    });
  }
});

/**
 * A server action's id in the build the server runs, from its manifest: the operator's actions are replayed
 * without their pages' buttons, which only the operator's Owner sees (and some only for certain rows).
 */
function actionId(file: string, name: string): string {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(ROOT, '.next', 'server', 'server-reference-manifest.json'), 'utf8'),
  ) as { node: Record<string, { exportedName?: string; filename?: string }> };
  const found = Object.entries(manifest.node).find(([, a]) => a.exportedName === name && a.filename?.endsWith(file));
  if (!found) throw new Error(`the build's server-reference-manifest.json has no ${name} of ${file}`);
  return found[0];
}

/** An id of nothing: past the grant, each action answers that it found nothing, and changes nothing. */
const NOTHING = '00000000-0000-4000-8000-000000000000';
const PUBLISHERS_ACTIONS = 'lib/dashboard/actions/publishers.ts';
const SITES_ACTIONS = 'lib/dashboard/actions/sites.ts';
const SITE_FIELDS = { name: 'E2E ops', url: 'https://e2e-ops.example.com', framework: 'unity' };
/** Each operator action, where it is posted, the power it needs, and harmless arguments (or a FormData's fields). */
const OPERATOR_ACTIONS: {
  file: string;
  name: string;
  path: string;
  power: 'operate' | 'pay';
  args?: () => unknown[];
  form?: Record<string, string>;
}[] = [
  {
    file: PUBLISHERS_ACTIONS,
    name: 'createPublisherAction',
    path: '/admin/publishers',
    power: 'operate',
    args: () => [{ email: `e2e-ops-${uniqueLabel('p').replace(/\W/g, '')}@example.com`, name: 'E2E ops' }],
  },
  ...['invitation', 'deactivate', 'reactivate', 'reset'].map((what) => ({
    file: PUBLISHERS_ACTIONS,
    name: 'publisherRowAction',
    path: '/admin/publishers',
    power: 'operate' as const,
    args: () => [what, NOTHING],
  })),
  {
    file: 'lib/dashboard/actions/people.ts',
    name: 'resetTwoFactorAction',
    path: '/admin/people',
    power: 'operate',
    args: () => [NOTHING],
  },
  {
    file: SITES_ACTIONS,
    name: 'reviewSiteAction',
    path: '/admin/sites',
    power: 'operate',
    args: () => [NOTHING, { status: 'approved' }],
  },
  {
    file: SITES_ACTIONS,
    name: 'addSiteAction',
    path: '/admin/sites',
    power: 'operate',
    args: () => [null, { ...SITE_FIELDS, publisherId: NOTHING }],
  },
  {
    file: SITES_ACTIONS,
    name: 'editSiteAction',
    path: '/admin/sites',
    power: 'operate',
    args: () => [null, NOTHING, SITE_FIELDS],
  },
  {
    file: 'lib/dashboard/actions/keys.ts',
    name: 'createKeyAction',
    path: '/keys',
    power: 'operate',
    args: () => [null, { label: 'e2e ops', siteIds: [], expiresOn: '', forUserId: NOTHING }],
  },
  {
    file: 'lib/dashboard/actions/payouts.ts',
    name: 'closeMonthAction',
    path: '/admin/payouts',
    power: 'pay',
    // This month is not over: past the grant it is refused as too early.
    args: () => [new Date().toISOString().slice(0, 7)],
  },
  {
    file: 'lib/dashboard/actions/payouts.ts',
    name: 'recordPaymentAction',
    path: '/admin/payouts',
    power: 'pay',
    // A statement that does not exist: past the grant it is refused as not due.
    form: { account: 'demo@example.com', month: '2000-01', amount: '1.00', paidAt: '2000-02-01', reference: 'e2e' },
  },
];

test('the operator’s server actions × the operator account’s members: only the roles granted get past the check', async ({
  openAs,
}) => {
  test.setTimeout(120_000);
  const callers = await Promise.all(OPERATORS.map(async (o) => [o, (await openAs(o)).context().request] as const));
  for (const action of OPERATOR_ACTIONS) {
    const headers = { 'Next-Action': actionId(action.file, action.name) };
    for (const [visitor, request] of callers) {
      const at = `${visitor}: ${action.name}${action.args ? ` ${JSON.stringify(action.args()[0])}` : ''}`;
      const answer = action.form
        ? // A FormData argument as React sends it: the arguments refer to it ($K1), its fields carry its prefix.
          await request.post(action.path, {
            headers,
            multipart: {
              0: '["$K1"]',
              ...Object.fromEntries(Object.entries(action.form).map(([k, v]) => [`1_${k}`, v])),
            },
            maxRedirects: 0,
          })
        : await request.post(action.path, {
            headers: { ...headers, 'Content-Type': 'text/plain;charset=UTF-8' },
            data: JSON.stringify(action.args!()),
            maxRedirects: 0,
          });
      expect(answer.status(), at).toBe(200);
      const refused = `you are ${ROLE_OF[visitor]}`;
      if (HOLDS[action.power].includes(visitor)) {
        expect(await answer.text(), at).not.toContain(refused);
      } else {
        expect(await answer.text(), at).toMatch(new RegExp(`needs the Owner or \\w+ role[^"]*; ${refused}\\.`));
      }
    }
  }
});

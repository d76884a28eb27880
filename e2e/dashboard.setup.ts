import fs from 'node:fs';
import path from 'node:path';
import { test as setup, expect } from '@playwright/test';
import { authFile, signIn, USERS, type DemoUser } from './support/dashboard';

/**
 * One signed-in session per demo account, saved as storage state for the dashboard specs: sign-ins are
 * throttled (10 per e-mail, 30 per address every 15 minutes), so specs reuse these instead of signing in.
 */
for (const user of Object.keys(USERS) as DemoUser[]) {
  setup(`sign in as ${user}`, async ({ page }) => {
    await page.goto('/login');
    await signIn(page, USERS[user].email);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('banner')).toContainText(USERS[user].name);
    fs.mkdirSync(path.dirname(authFile(user)), { recursive: true });
    await page.context().storageState({ path: authFile(user) });
  });
}

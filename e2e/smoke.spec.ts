import { expect, test } from '@playwright/test';

test('a signed-out visitor is sent to the sign-in page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('the API answers an unauthenticated call with a 401 problem', async ({ request }) => {
  const response = await request.get('/api/v1/sites');
  expect(response.status()).toBe(401);
  expect(response.headers()['content-type']).toContain('application/problem+json');
  expect(response.headers()['www-authenticate']).toContain('Bearer');
  expect((await response.json()).status).toBe(401);
});

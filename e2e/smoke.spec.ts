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

test('a path that is not valid percent-encoded UTF-8 is a 400 problem with rate-limit headers, not a 500', async ({
  request,
}) => {
  for (const path of ['/api/v1/%FF', '/api/v1/api-keys/%ED%A0%80', '/api/v1/reports/%C0%AF?pageSize=1']) {
    const response = await request.get(path, { headers: { 'X-Portal-Malformed-Path': '0' } });
    expect(response.status(), path).toBe(400);
    expect(response.headers()['content-type']).toContain('application/problem+json');
    expect(response.headers()['x-ratelimit-limit']).toBeDefined();
    expect((await response.json()).errors).toEqual([
      { parameter: 'path', detail: 'is not valid percent-encoded UTF-8' },
    ]);
  }
  // A client's own copy of the server's flag changes nothing on a well-formed path.
  const unknown = await request.get('/api/v1/nothing-here', { headers: { 'X-Portal-Malformed-Path': '1' } });
  expect(unknown.status()).toBe(404);
});

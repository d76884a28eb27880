import { expect, test } from '@playwright/test';
import { generateApiKey } from '@/lib/keys/key-format';
import { startServer, type ServerProcess } from './support/servers';

/**
 * Issue 9, point 11: the production build started with no DATABASE_URL where the embedded database's folder
 * cannot be created (a Vercel preview with no database attached: its file system is read-only; a folder
 * under a regular file stands in for that here) starts, and answers every page and API call with a 503 that
 * names DATABASE_URL.
 */
let server: ServerProcess;

test.beforeAll(async () => {
  server = await startServer({
    name: 'no-database',
    database: { PGLITE_DIR: '/etc/hostname/pglite' },
    env: { DATABASE_URL: '' },
    ready: { path: '/api/v1/health', status: 200 },
  });
});

test.afterAll(async () => {
  await server?.stop();
});

test('every page is the app’s own 503 page naming DATABASE_URL, with its security headers', async ({ page }) => {
  for (const path of ['/', '/login', '/countries', '/keys', '/docs', '/export/countries', '/no-such-page']) {
    const response = await page.goto(`${server.url}${path}`);
    expect(response!.status(), path).toBe(503);
    expect(response!.headers()['content-security-policy'], path).toContain("frame-ancestors 'none'");
    await expect(page.getByRole('heading', { name: 'The portal is temporarily unavailable' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText('Set DATABASE_URL to a PostgreSQL database');
  }
});

test('every API call is a 503 problem naming DATABASE_URL; health still answers', async ({ request }) => {
  const key = generateApiKey().raw; // well-formed, so it is looked up (a malformed one is a 401 at once)
  for (const path of ['/api/v1/sites', '/api/v1/reports/totals', '/api/v1/api-keys']) {
    const response = await request.get(`${server.url}${path}`, { headers: { 'X-Api-Key': key } });
    expect(response.status(), path).toBe(503);
    expect(response.headers()['content-type']).toContain('application/problem+json');
    expect(response.headers()['retry-after']).toBeDefined();
    expect((await response.json()).detail).toContain('Set DATABASE_URL');
  }
  expect((await request.get(`${server.url}/api/v1/health`)).status()).toBe(200);
  expect(server.output()).toContain('DATABASE_URL');
});

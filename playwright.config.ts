import { defineConfig, devices } from '@playwright/test';
import chromium from './scripts/chromium.json' with { type: 'json' };
import { MAIL_DIR } from './e2e/support/mail';

const port = Number(process.env.E2E_PORT ?? 3200);
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2526);

/** Debian's Chromium (scripts/chromium.json): Playwright must never download a browser of its own. */
const launchOptions = { executablePath: process.env.CHROMIUM_PATH ?? chromium.path, args: chromium.args };

/**
 * End-to-end tests against a production build (`scripts/start.mjs` builds when needed) on a fresh embedded
 * database seeded with the demo data, in Debian's Chromium.
 *
 * The dashboard specs (e2e/dashboard-*.spec.ts) reuse one signed-in session per demo account, made once by
 * the `setup` project (e2e/dashboard.setup.ts): sign-ins are throttled per address, and signing in costs an
 * argon2 verification each time.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  globalTeardown: './e2e/support/scan-server-log.ts',
  retries: 0,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // On failure only: nothing reads the passing tests' screenshots, and each is a capture on a busy 2-core machine.
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: /dashboard[-.]/,
      use: { ...devices['Desktop Chrome'], launchOptions },
    },
    {
      name: 'setup',
      testMatch: /dashboard\.setup\.ts$/,
      use: { ...devices['Desktop Chrome'], launchOptions },
    },
    {
      name: 'dashboard',
      testMatch: /dashboard-.*\.spec\.ts$/,
      dependencies: ['setup'],
      use: { ...devices['Desktop Chrome'], launchOptions },
    },
  ],
  webServer: [
    {
      // A real SMTP server for the portal's mail (invitation links travel by e-mail only): readMail in e2e/support/mail.ts.
      command: `rm -rf ${MAIL_DIR} && npx tsx e2e/support/smtp-sink-process.ts --port ${smtpPort} --dir ${MAIL_DIR}`,
      port: smtpPort,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
    {
      // Everything it prints is also kept, for the secrets scan after the run (e2e/support/scan-server-log.ts).
      command: `rm -rf .data/e2e && mkdir -p .data/e2e && node scripts/start.mjs --port ${port} 2>&1 | tee .data/e2e/server.log`,
      url: `http://127.0.0.1:${port}/`,
      timeout: 300_000,
      reuseExistingServer: false,
      env: {
        PGLITE_DIR: '.data/e2e/pglite',
        DATABASE_URL: '',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        MAIL_FROM: 'Portal <portal@e2e.example>',
      },
      stdout: 'pipe',
    },
  ],
});

import { defineConfig, devices } from '@playwright/test';
import chromium from './scripts/chromium.json' with { type: 'json' };
import { MAIL_DIR } from './e2e/support/mail';

const port = Number(process.env.E2E_PORT ?? 3200);
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2526);

/** Specs whose assertions time the server: they run while only the short `setup` project may run beside them. */
const TIMED = /(export-bounds|outage|ratelimit)\.spec\.ts$/;

/** Debian's Chromium (scripts/chromium.json): Playwright must never download a browser of its own. */
const launchOptions = { executablePath: process.env.CHROMIUM_PATH ?? chromium.path, args: chromium.args };

/**
 * End-to-end tests against a production build (`scripts/start.mjs` builds when needed) on a fresh embedded
 * database seeded with the demo data, in Debian's Chromium.
 *
 * The dashboard specs (e2e/dashboard-*.spec.ts) reuse one signed-in session per demo account, made once by
 * the `setup` project (e2e/dashboard.setup.ts): sign-ins are throttled per address, and signing in costs an
 * argon2 verification each time.
 *
 * One worker by default. With E2E_WORKERS=2, two: the specs that start servers of their own (own ports past
 * E2E_PORT, own databases, own mail sinks; smoke.spec.ts only reads the signed-out pages) run beside the
 * `dashboard` specs, which share the webServer's demo data and sign-in throttle. Within each project the files run
 * one at a time (a project's `workers: 1`), as before. Playwright runs a project only after every project of the
 * step before, so:
 * 1. `setup` beside `timed`: the specs whose assertions time the server (stalled exports, a 60-second outage,
 *    rate-limit windows) and fail when another worker loads the 2 cores; they run alone once the short setup ends;
 * 2. `chromium` (the other specs with servers of their own) beside `dashboard`.
 * On a 2-core machine that other jobs loaded to a load average of 12–15, two workers failed tests that time the
 * server or wait 30 s for one to start (README, "Development"): the default stays one worker until two pass on an
 * otherwise idle machine of that class.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 1),
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
      name: 'timed',
      testMatch: TIMED,
      workers: 1,
      use: { ...devices['Desktop Chrome'], launchOptions },
    },
    {
      name: 'chromium',
      testIgnore: [/dashboard[-.]/, TIMED],
      dependencies: ['setup'],
      workers: 1,
      use: { ...devices['Desktop Chrome'], launchOptions },
    },
    {
      name: 'setup',
      testMatch: /dashboard\.setup\.ts$/,
      workers: 1,
      use: { ...devices['Desktop Chrome'], launchOptions },
    },
    {
      name: 'dashboard',
      testMatch: /dashboard-.*\.spec\.ts$/,
      dependencies: ['setup'],
      workers: 1,
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

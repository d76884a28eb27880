import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/** Files that replace a module with vi.mock: only they pay for a module graph of their own. */
const MOCKS_MODULES = [
  'tests/integration/dashboard-signin-decoy.test.ts',
  'tests/integration/ratelimit-trust-proxy.test.ts',
];

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    environment: 'node',
    // Worker threads start faster than child processes.
    pool: 'threads',
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Files share one PostgreSQL database when TEST_DATABASE_URL is set: run them one after another there.
    // On PGlite each file has a private copy, so files run side by side, one per CPU (vitest's default
    // leaves a CPU free, which on two CPUs means one file at a time).
    fileParallelism: !process.env.TEST_DATABASE_URL,
    maxWorkers: process.env.TEST_DATABASE_URL ? 1 : Math.max(2, os.availableParallelism()),
    projects: [
      {
        extends: true,
        // Loading the app's modules once per worker instead of once per file saves about a third of the run;
        // tests/support/fresh-state.ts resets what a file may leave behind in them.
        test: {
          name: 'tests',
          include: ['tests/**/*.test.ts'],
          exclude: MOCKS_MODULES,
          isolate: false,
          setupFiles: ['tests/support/fresh-state.ts'],
        },
      },
      { extends: true, test: { name: 'module mocks', include: MOCKS_MODULES } },
    ],
  },
});

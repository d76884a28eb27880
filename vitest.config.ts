import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { POSTGRES_WORKERS } from './tests/support/worker-database';

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
    // Files run side by side: on PGlite each file has a private copy, one file per CPU (vitest's default leaves a
    // CPU free, which on two CPUs means one file at a time); on PostgreSQL each worker has a copy of its own
    // (tests/support/worker-database.ts).
    maxWorkers: process.env.TEST_DATABASE_URL ? POSTGRES_WORKERS : Math.max(2, os.availableParallelism()),
    // Before each file: point TEST_DATABASE_URL and its companions at the worker's copy.
    setupFiles: ['tests/support/worker-env.ts'],
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

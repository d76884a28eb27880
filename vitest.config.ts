import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    // Worker threads start faster than child processes; each test file still gets fresh modules.
    pool: 'threads',
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Files share one PostgreSQL database when TEST_DATABASE_URL is set: run them one after another there.
    // On PGlite each file has a private copy, so files run side by side, one per CPU (vitest's default
    // leaves a CPU free, which on two CPUs means one file at a time).
    fileParallelism: !process.env.TEST_DATABASE_URL,
    maxWorkers: process.env.TEST_DATABASE_URL ? 1 : Math.max(2, os.availableParallelism()),
  },
});

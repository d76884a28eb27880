import { afterAll, vi } from 'vitest';
import { setDatabase } from '@/db/client';
import { setEnv } from '@/lib/platform/env';
import { setRateLimitStore } from '@/lib/ratelimit';

/**
 * Test files share loaded modules (vitest.config.ts, `isolate: false`), so process-wide state a file
 * installs must not reach the next one: after each file, the configuration, the database handle and the
 * rate-limit store are read afresh, and spies, stubs and fake timers are undone.
 */
afterAll(() => {
  setEnv(undefined);
  setDatabase(undefined);
  setRateLimitStore(undefined);
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

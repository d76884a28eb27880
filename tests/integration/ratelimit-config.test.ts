import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEnv, setEnv } from '@/lib/platform/env';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { get } from '../support/api';
import { newClientAddress, stamped } from '../support/client-address';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';
import { issueKey } from '../support/keys';
import { expectProblem } from './api-helpers';
import { limitHeaders, manualClock } from './ratelimit-helpers';

// RATE_LIMIT_PER_MINUTE and ADDRESS_RATE_LIMIT_PER_MINUTE, installed with setEnv as a deployment would set them.
const t = useTestDatabase();
const clock = manualClock(Date.UTC(2026, 6, 1, 8, 0, 2));

beforeEach(() => {
  setEnv(readEnv({ ...process.env, RATE_LIMIT_PER_MINUTE: '5', ADDRESS_RATE_LIMIT_PER_MINUTE: '3' }));
  setRateLimitStore(createMemoryStore(clock.now));
});
afterEach(() => {
  setEnv(undefined);
  setRateLimitStore(undefined);
});

describe('configured rate limits', () => {
  it('a key gets RATE_LIMIT_PER_MINUTE: Limit states it, and the 6th request of 5 is 429', async () => {
    const user = await createPublisher(t.db);
    const { raw: key } = await issueKey(user.id);
    for (let i = 1; i <= 5; i++) {
      const res = await get('/api/v1/sites', { key });
      expect(res.status, res.text).toBe(200);
      expect(limitHeaders(res)).toEqual({ limit: '5', remaining: String(5 - i) });
    }
    const res = await get('/api/v1/sites', { key });
    expect(expectProblem(res, 429, '/api/v1/sites').detail).toContain('used its 5 requests');
    expect(limitHeaders(res)).toEqual({ limit: '5', remaining: '0' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('an address without a valid key gets ADDRESS_RATE_LIMIT_PER_MINUTE, and Limit states it', async () => {
    const headers = stamped(newClientAddress());
    for (let i = 1; i <= 3; i++) {
      const res = await get('/api/v1/sites', { headers });
      expect(res.status, res.text).toBe(401);
      expect(limitHeaders(res)).toEqual({ limit: '3', remaining: String(3 - i) });
    }
    const res = await get('/api/v1/sites', { headers });
    expect(expectProblem(res, 429, '/api/v1/sites').detail).toContain('made 3 requests');
    expect(limitHeaders(res)).toEqual({ limit: '3', remaining: '0' });
  });
});

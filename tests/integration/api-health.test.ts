import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Database, setDatabase } from '@/db/client';
import { generateApiKey } from '@/lib/keys/key-format';
import { setRateLimitStore, WINDOW_MS } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { callApi, get } from '../support/api';
import { newClientAddress, stamped } from '../support/client-address';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';
import { issueKey, otherLastChar } from '../support/keys';
import { expectProblem } from './api-helpers';
import { limitHeaders, manualClock } from './ratelimit-helpers';

// GET /api/v1/health: public, a constant body through the whole wrapper, and never the database. The real
// database is there only to issue a key in beforeAll; every test runs with one that fails on any use.
const t = useTestDatabase();
const clock = manualClock(Date.UTC(2026, 6, 1, 8, 0, 2));
const noDatabase = {
  kind: 'pglite',
  get db(): never {
    throw new Error('the health check touched the database');
  },
  bulk: () => Promise.reject(new Error('the health check touched the database')),
  stream: async function* () {
    throw new Error('the health check touched the database');
  },
  close: async () => {},
} as Database;

let key: { raw: string; id: string };
let store: ReturnType<typeof createMemoryStore>;

beforeAll(async () => {
  const user = await createPublisher(t.db);
  const { raw, record } = await issueKey(user.id);
  key = { raw, id: record.id };
});
beforeEach(() => {
  setDatabase(noDatabase);
  setRateLimitStore((store = createMemoryStore(clock.now)));
});
afterEach(() => {
  setDatabase(t.database);
  setRateLimitStore(undefined);
});

const HEALTH = '/api/v1/health';
const from = (address: string, headers: Record<string, string> = {}) => ({ ...stamped(address), ...headers });

describe('GET /api/v1/health', () => {
  it('answers 200 {"status":"ok"} as JSON without a key, with a request id and the rate-limit headers', async () => {
    const res = await get(HEALTH);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ status: 'ok' });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // Cacheable but checked again every time (lib/api/endpoints.ts), with a strong ETag.
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    // A fresh address (callApi gives each call its own): one of its 30 spent; Limit states the address's figure.
    expect(limitHeaders(res)).toEqual({ limit: '30', remaining: '29' });
  });

  it('is negotiated and validated like every endpoint: text/plain, 406 for CSV, 400 for an unknown parameter', async () => {
    const plain = await get(HEALTH, { headers: { Accept: 'text/plain' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(plain.json).toEqual({ status: 'ok' });
    expectProblem(await get(HEALTH, { headers: { Accept: 'text/csv' } }), 406, HEALTH);
    expectProblem(await get(`${HEALTH}?verbose=1`), 400, HEALTH);
  });

  it('ignores keys: invalid ones are no 401, and a valid one spends the address budget, not the key', async () => {
    const good = key.raw;
    const badChecksum = otherLastChar(good);
    const address = newClientAddress();
    const sent: Record<string, string>[] = [
      { 'X-Api-Key': generateApiKey().raw },
      { 'X-Api-Key': badChecksum },
      { 'X-Api-Key': 'not-a-key' },
      { Authorization: 'Basic Zm9vOmJhcg==' },
      { 'X-Api-Key': good, Authorization: `Bearer ${badChecksum}` },
      { 'X-Api-Key': good },
    ];
    for (const [i, headers] of sent.entries()) {
      const res = await get(HEALTH, { headers: from(address, headers) });
      expect(res.status, `${JSON.stringify(headers)}: ${res.text}`).toBe(200);
      expect(limitHeaders(res)).toEqual({ limit: '30', remaining: String(29 - i) });
    }
    // The key's own bucket is untouched.
    expect(await store.hit(`key:${key.id}`, 120, WINDOW_MS)).toMatchObject({ remaining: 119 });
  });

  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    it(`answers ${method} with 405 and Allow: GET, OPTIONS`, async () => {
      const res = await callApi(method, HEALTH);
      expectProblem(res, 405, HEALTH);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(limitHeaders(res)).toEqual({ limit: '30', remaining: '29' });
    });
  }

  it('answers OPTIONS with 204 and Allow', async () => {
    const res = await callApi('OPTIONS', HEALTH);
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('spends the per-address budget: the 31st request of a minute from one address is 429', async () => {
    const headers = from(newClientAddress());
    for (let i = 1; i <= 30; i++) {
      const res = await get(HEALTH, { headers });
      expect(res.status, res.text).toBe(200);
      expect(limitHeaders(res).remaining).toBe(String(30 - i));
    }
    const res = await get(HEALTH, { headers });
    expectProblem(res, 429, HEALTH);
    expect(limitHeaders(res)).toEqual({ limit: '30', remaining: '0' });
    expect(res.headers.get('retry-after')).toBe('58');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    // Another address is not affected.
    expect((await get(HEALTH)).status).toBe(200);
  });
});

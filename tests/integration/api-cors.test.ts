import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXPOSED_HEADERS } from '@/lib/http/cors';
import { readEnv, setEnv } from '@/lib/platform/env';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { type ApiResult, callApi, get } from '../support/api';
import { newClientAddress, stamped } from '../support/client-address';
import { useTestDatabase } from '../support/db';
import { demoKey } from '../support/keys';
import { range } from './ratelimit-helpers';

// Issue 20: CORS. The OpenAPI document for any origin; the rest for CORS_ORIGINS only; preflights free.
useTestDatabase();
const ALLOWED = 'https://app.example.com';
const ALSO_ALLOWED = 'https://bi.example.org:8443';
const STRANGER = 'https://evil.example.net';
let key: string;

beforeAll(async () => {
  key = (await demoKey()).raw;
});
beforeEach(() => {
  setEnv(readEnv({ ...process.env, CORS_ORIGINS: ` ${ALLOWED}, ${ALSO_ALLOWED} ` }));
  setRateLimitStore(createMemoryStore());
});
afterEach(() => {
  setEnv(undefined);
  setRateLimitStore(undefined);
});

const preflight = (path: string, origin: string, headers: Record<string, string> = {}) =>
  callApi('OPTIONS', path, {
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'GET',
      'Access-Control-Request-Headers': 'x-api-key',
      ...headers,
    },
  });
const varyOf = (res: ApiResult) => (res.headers.get('vary') ?? '').split(',').map((name) => name.trim());
const rateLimitHeaders = (res: ApiResult) => [...res.headers.keys()].filter((name) => name.startsWith('x-ratelimit'));

describe('CORS', () => {
  it('the OpenAPI document is readable from any origin, and so is its preflight', async () => {
    for (const headers of [{}, { Origin: STRANGER }, { Origin: ALLOWED }] as Record<string, string>[]) {
      const res = await get('/api/v1/openapi.json', { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toBe(EXPOSED_HEADERS);
      expect(varyOf(res)).not.toContain('Origin');
    }
    const pre = await preflight('/api/v1/openapi.json', STRANGER);
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers a preflight from an allowed origin with its origin, methods, headers and Vary: Origin', async () => {
    for (const origin of [ALLOWED, ALSO_ALLOWED]) {
      const res = await preflight('/api/v1/reports/by-country', origin);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(varyOf(res)).toContain('Origin');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
      expect(res.headers.get('access-control-allow-headers')).toBe('X-Api-Key, Authorization, Content-Type, Accept');
      expect(res.headers.get('access-control-expose-headers')).toBe(EXPOSED_HEADERS);
      expect(res.headers.get('access-control-max-age')).toBe('600');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
    const keys = await preflight('/api/v1/api-keys', ALLOWED, { 'Access-Control-Request-Method': 'POST' });
    expect(keys.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('gives any other origin, or a look-alike, no Access-Control-Allow-Origin', async () => {
    for (const origin of [
      STRANGER,
      `${ALLOWED}/`,
      'http://app.example.com',
      'https://app.example.com.evil.net',
      'null',
    ]) {
      const res = await preflight('/api/v1/sites', origin);
      expect(res.status, origin).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(res.headers.get('access-control-allow-methods'), origin).toBeNull();
      expect(varyOf(res)).toContain('Origin');
    }
  });

  it('allows no origin at all by default', async () => {
    setEnv(readEnv({ ...process.env, CORS_ORIGINS: '' }));
    const res = await preflight('/api/v1/sites', ALLOWED);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(
      (await get('/api/v1/sites', { key, headers: { Origin: ALLOWED } })).headers.get('access-control-allow-origin'),
    ).toBeNull();
  });

  it('never spends a request: 100 preflights from one address, then its first real request has 29 left', async () => {
    const address = stamped(newClientAddress());
    for (const i of range(100)) {
      const path = ['/api/v1/sites', '/api/v1/openapi.json', '/api/v1/health', '/api/v1/nothing-here'][i % 4];
      const res = await preflight(path, i % 2 ? ALLOWED : STRANGER, address);
      expect(res.status, path).not.toBe(429);
      expect(rateLimitHeaders(res), path).toEqual([]);
    }
    const after = await get('/api/v1/sites', { headers: address });
    expect(after.status).toBe(401);
    expect(after.headers.get('x-ratelimit-remaining')).toBe('29');
    // An OPTIONS that is not a preflight is a request like any other.
    expect((await callApi('OPTIONS', '/api/v1/sites', { headers: address })).headers.get('x-ratelimit-remaining')).toBe(
      '28',
    );
  });

  it('lets an allowed origin read real answers, errors included; others get only Vary: Origin', async () => {
    const answers = [
      await get('/api/v1/reports/by-country?pageSize=2', { key, headers: { Origin: ALLOWED } }),
      await get('/api/v1/sites', { headers: { Origin: ALLOWED } }),
      await get('/api/v1/reports/by-country?pageSize=0', { key, headers: { Origin: ALLOWED } }),
      await get('/api/v1/nothing-here', { key, headers: { Origin: ALLOWED } }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 400, 404]);
    for (const res of answers) {
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(res.headers.get('access-control-expose-headers')).toBe(EXPOSED_HEADERS);
      expect(varyOf(res)).toContain('Origin');
    }
    // Accept and Origin both, each once.
    expect(varyOf(answers[0]).sort()).toEqual(['Accept', 'Origin']);
    const stranger = await get('/api/v1/sites', { key, headers: { Origin: STRANGER } });
    expect(stranger.status).toBe(200);
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    expect(varyOf(stranger)).toContain('Origin');
  });

  it('refuses a CORS_ORIGINS entry that is not an origin', () => {
    for (const value of ['https://app.example.com/', 'app.example.com', 'https://a.example.com/path', '*']) {
      expect(() => readEnv({ CORS_ORIGINS: value }), value).toThrow(/CORS_ORIGINS/);
    }
  });
});

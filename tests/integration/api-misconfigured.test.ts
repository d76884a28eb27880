import { afterAll, describe, expect, it } from 'vitest';
import { getDatabase, setDatabase } from '@/db/client';
import { generateApiKey } from '@/lib/keys/key-format';
import { databaseMisconfiguration } from '@/lib/platform/deployment';
import { readEnv, setEnv } from '@/lib/platform/env';
import { ENDPOINTS } from '@/lib/api/endpoints';
import { callApi } from '../support/api';

/**
 * Issue 9, point 11: a deployment with no DATABASE_URL on a file system where the embedded database cannot
 * live (a Vercel preview with no database attached) answers every API call 503, naming DATABASE_URL, instead
 * of crashing on the folder. A folder under a regular file stands in for a read-only file system here: it
 * cannot be created either, whoever runs the tests (root may write to read-only permissions).
 */
const UNWRITABLE = '/etc/hostname/pglite';

afterAll(() => {
  setEnv(undefined);
  setDatabase(undefined);
});

describe('without DATABASE_URL and with no writable folder for the embedded database', () => {
  it('names the problem and the fix', () => {
    setEnv(readEnv({ ...process.env, DATABASE_URL: '', PGLITE_DIR: UNWRITABLE }));
    expect(databaseMisconfiguration()).toBe(
      `No database is configured: DATABASE_URL is not set, and the embedded database's folder (PGLITE_DIR=${UNWRITABLE}) ` +
        `cannot be written here (ENOTDIR; a Vercel deployment's file system is read-only). Set DATABASE_URL to a PostgreSQL database.`,
    );
    setEnv(readEnv({ ...process.env, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' }));
    expect(databaseMisconfiguration()).toBeNull();
  });

  it('answers every API operation 503 problem+json with Retry-After, naming DATABASE_URL', async () => {
    setEnv(readEnv({ ...process.env, DATABASE_URL: '', PGLITE_DIR: UNWRITABLE }));
    setDatabase(undefined); // as at a deployment's start: nothing opened yet
    await expect(getDatabase()).rejects.toThrow('Set DATABASE_URL');
    const keyed = ENDPOINTS.filter((e) => e.access !== 'public');
    expect(keyed.length).toBeGreaterThan(8);
    for (const endpoint of keyed) {
      const path = endpoint.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const res = await callApi(endpoint.method, path, {
        key: generateApiKey().raw,
        body: endpoint.body ? {} : undefined,
      });
      expect(res.status, `${endpoint.method} ${path}`).toBe(503);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.json.detail).toContain('Set DATABASE_URL to a PostgreSQL database');
    }
    // The public ones need no database.
    expect((await callApi('GET', '/api/v1/health')).status).toBe(200);
  });
});

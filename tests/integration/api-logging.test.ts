import { format } from 'node:util';
import { DrizzleQueryError } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { type Database, type Db, openPostgres, setDatabase } from '@/db/client';
import { hashApiKey } from '@/lib/keys/key-format';
import { callApi, get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey, otherLastChar } from '../support/keys';
import { keyRow } from './api-helpers';

const t = useTestDatabase();
const METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
let spies: MockInstance[] = [];

beforeEach(() => {
  spies = METHODS.map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
});
afterEach(() => {
  for (const spy of spies) spy.mockRestore();
});

/** Everything printed to the console since the test began, formatted the way console would print it. */
const printed = () => spies.flatMap((spy) => spy.mock.calls.map((args) => format(...args))).join('\n');

/** What must never be printed for a raw key: the key, its secret part, its hash or a slice of the hash. */
function expectNeverPrinted(raw: string) {
  const text = printed();
  const hash = hashApiKey(raw);
  expect(text).not.toContain(raw.slice(12));
  expect(text).not.toContain(hash.slice(0, 12));
  expect(text).not.toContain(hash.slice(-12));
}

async function withDatabase(database: Database, run: () => Promise<void>) {
  setDatabase(database);
  try {
    await run();
  } finally {
    setDatabase(t.database);
  }
}

describe('secrets in logs', () => {
  it('are never printed across create, list, use, revoke and refused requests', async () => {
    const user = await createPublisher(t.db);
    await createSite(t.db, user.id);
    const { raw: admin } = await issueKey(user.id);
    const created = await callApi('POST', '/api/v1/api-keys', { key: admin, body: { label: 'logged?' } });
    expect(created.status).toBe(200);
    const raw: string = created.json.apiKey;
    expect((await get('/api/v1/api-keys', { key: admin })).status).toBe(200);
    expect((await get('/api/v1/sites', { key: raw })).status).toBe(200);
    expect((await get('/api/v1/sites', { headers: { Authorization: `Bearer ${raw}` } })).status).toBe(200);
    expect((await get(`/api/v1/revenues/countries?apiKey=${raw}&pageSize=1`)).status).toBe(200);
    expect((await get(`/api/v1/revenues/countries?apiKey=${raw}&pageSize=0`)).status).toBe(400);
    expect(
      (await get('/api/v1/sites', { headers: { 'X-Api-Key': raw, Authorization: `Bearer ${admin}` } })).status,
    ).toBe(400);
    expect((await callApi('DELETE', `/api/v1/api-keys/${created.json.key.id}`, { key: admin })).status).toBe(200);
    expect((await get('/api/v1/sites', { key: raw })).status).toBe(401);
    expect((await get(`/api/v1/revenues/countries?apiKey=${raw}`)).status).toBe(401);
    expect((await get('/api/v1/sites', { key: otherLastChar(raw) })).status).toBe(401);
    expectNeverPrinted(raw);
    expectNeverPrinted(admin);
    expect((await keyRow(t.db, created.json.key.id)).keyHash).toBe(hashApiKey(raw));
  });

  it('are not printed when the database is down while a key is checked', async () => {
    const { raw } = await issueKey((await createPublisher(t.db)).id);
    const down = await openPostgres('postgres://nobody@127.0.0.1:1/nothing', { max: 1 });
    try {
      await withDatabase(down, async () => {
        expect((await get('/api/v1/sites', { key: raw })).status).toBe(503);
        expect((await get(`/api/v1/revenues/countries?apiKey=${raw}`)).status).toBe(503);
      });
    } finally {
      await down.close();
    }
    // The outage itself is logged, only without the query's parameters.
    expect(printed()).toMatch(/unavailable/i);
    expect(printed()).toMatch(/ECONNREFUSED/);
    expectNeverPrinted(raw);
  });

  // The second kind: the same error made by another copy of drizzle-orm (a bundled server may hold two), which
  // `instanceof DrizzleQueryError` does not recognise.
  it.each(['DrizzleQueryError', 'a look-alike from another copy of drizzle'])(
    'are not printed when a query fails unexpectedly with the hash among its parameters (%s)',
    async (kind) => {
      const { raw } = await issueKey((await createPublisher(t.db)).id);
      const query = 'select "id" from "api_keys" where "key_hash" = $1 limit $2';
      const params = [hashApiKey(raw), 1];
      const cause = Object.assign(new Error('relation "api_keys" does not exist'), { code: '42P01' });
      const failure =
        kind === 'DrizzleQueryError'
          ? new DrizzleQueryError(query, params, cause)
          : Object.assign(new Error(`Failed query: ${query}\nparams: ${params.join(',')}`, { cause }), {
              query,
              params,
            });
      const db = new Proxy(
        {},
        {
          get: () => () => {
            throw failure;
          },
        },
      ) as unknown as Db;
      const stream = async function* () {
        throw failure;
      };
      await withDatabase(
        { db, kind: 'postgres', bulk: () => Promise.reject(failure), stream, close: async () => {} },
        async () => {
          const res = await get('/api/v1/sites', { key: raw });
          expect(res.status).toBe(500);
          expect(res.text).not.toContain(hashApiKey(raw).slice(0, 12));
        },
      );
      expect(printed()).toMatch(/relation \\?"api_keys\\?" does not exist/);
      expect(printed()).toContain('42P01');
      expectNeverPrinted(raw);
    },
  );
});

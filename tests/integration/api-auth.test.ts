import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { type Database, openPostgres, setDatabase } from '@/db/client';
import { apiKeys, sites } from '@/db/schema';
import { DEMO_IDS } from '@/db/seed-data';
import { generateApiKey } from '@/lib/keys/key-format';
import { type ApiResult, callApi, get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { demoKey, rivalKey } from '../support/keys';
import { expectProblem, parameters, visibleText } from './api-helpers';

const t = useTestDatabase();

async function demoSiteIds(): Promise<string[]> {
  const rows = await t.db.select({ id: sites.id }).from(sites).where(eq(sites.userId, DEMO_IDS.users.demo));
  return rows.map((r) => r.id).sort();
}
const siteIdsOf = (res: ApiResult): string[] => res.json.map((s: { siteId: string }) => s.siteId).sort();

/** Changes one character of the random part, keeping the shape: the checksum no longer matches. */
function flipOneChar(raw: string): string {
  const i = 10;
  return raw.slice(0, i) + (raw[i] === 'a' ? 'b' : 'a') + raw.slice(i + 1);
}

describe('authentication', () => {
  it('accepts the key in X-Api-Key and answers with the account data', async () => {
    const { raw } = await demoKey();
    const res = await get('/api/v1/sites', { key: raw });
    expect(res.status, res.text).toBe(200);
    expect(siteIdsOf(res)).toEqual(await demoSiteIds());
  });

  it('accepts Authorization: Bearer with the scheme in any letter case', async () => {
    const { raw } = await demoKey();
    const expected = await demoSiteIds();
    for (const value of [`Bearer ${raw}`, `bearer ${raw}`, `BEARER ${raw}`, `BeArEr    ${raw}`, `  Bearer ${raw}  `]) {
      const res = await get('/api/v1/sites', { headers: { Authorization: value } });
      expect(res.status, value).toBe(200);
      expect(siteIdsOf(res)).toEqual(expected);
    }
  });

  it('gives each key its own account', async () => {
    const { raw } = await rivalKey();
    const res = await get('/api/v1/sites', { key: raw });
    expect(res.status).toBe(200);
    expect(siteIdsOf(res)).toEqual([DEMO_IDS.sites.bubblePop, DEMO_IDS.sites.tankArena].sort());
  });

  it('takes a key from the query string on the legacy feed only', async () => {
    const { raw } = await demoKey();
    const legacy = await get(`/api/v1/revenues/countries?apiKey=${raw}&pageSize=1`);
    expect(legacy.status, legacy.text).toBe(200);
    expect(legacy.headers.get('deprecation')).toBe('true');
    expect(legacy.json.data).toHaveLength(1);
    // Parameter names are case-insensitive there, as everywhere.
    expect((await get(`/api/v1/revenues/countries?APIKEY=${raw}&pageSize=1`)).status).toBe(200);
    for (const path of ['/api/v1/sites', '/api/v1/reports/countries', '/api/v1/reports/totals', '/api/v1/api-keys']) {
      expectProblem(await get(`${path}?apiKey=${raw}`), 401, path);
    }
  });

  it('refuses a header key that also comes in the query string of a non-legacy endpoint, without echoing it', async () => {
    const { raw } = await demoKey();
    const res = await get(`/api/v1/sites?apiKey=${raw}`, { key: raw });
    expectProblem(res, 400, '/api/v1/sites');
    expect(parameters(res)).toContain('apiKey');
    expect(visibleText(res)).not.toContain(raw);
  });

  describe('one uniform 401', () => {
    async function unauthorizedResponses(): Promise<[string, ApiResult][]> {
      const { raw: valid } = await demoKey();
      const { raw: revoked, record } = await demoKey();
      await t.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, record.id));
      const { raw: expired, record: expiredRecord } = await demoKey();
      await t.db
        .update(apiKeys)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(apiKeys.id, expiredRecord.id));
      const unknown = generateApiKey().raw;
      const cases: [string, Record<string, string>][] = [
        ['missing', {}],
        ['empty X-Api-Key', { 'X-Api-Key': '' }],
        ['blank X-Api-Key', { 'X-Api-Key': '   ' }],
        ['wrong prefix', { 'X-Api-Key': `sk_${valid.slice(3)}` }],
        ['too short', { 'X-Api-Key': valid.slice(0, -1) }],
        ['too long', { 'X-Api-Key': `${valid}A` }],
        ['non-base62', { 'X-Api-Key': `${valid.slice(0, 20)}-${valid.slice(21)}` }],
        ['bad checksum', { 'X-Api-Key': flipOneChar(valid) }],
        ['unknown', { 'X-Api-Key': unknown }],
        ['unknown as Bearer', { Authorization: `Bearer ${unknown}` }],
        ['revoked', { 'X-Api-Key': revoked }],
        ['revoked as Bearer', { Authorization: `Bearer ${revoked}` }],
        ['expired', { 'X-Api-Key': expired }],
        ['Basic', { Authorization: `Basic ${Buffer.from(`user:${valid}`).toString('base64')}` }],
        ['Basic with the key itself', { Authorization: `Basic ${valid}` }],
        ['bare key in Authorization', { Authorization: valid }],
        ['Bearer without a token', { Authorization: 'Bearer' }],
        ['Bearer with two tokens', { Authorization: `Bearer ${valid} ${valid}` }],
        ['junk', { 'X-Api-Key': 'hello' }],
      ];
      const out: [string, ApiResult][] = [];
      for (const [name, headers] of cases) out.push([name, await get('/api/v1/sites', { headers })]);
      return out;
    }

    it('is byte-identical apart from requestId, with the same headers, whatever is wrong with the key', async () => {
      const responses = await unauthorizedResponses();
      const [, first] = responses[0];
      const normalize = (res: ApiResult) => res.text.replace(/"requestId":"[^"]*"/, '"requestId":"-"');
      const headerNames = (res: ApiResult) => [...res.headers.keys()].filter((k) => k !== 'x-request-id').sort();
      const headersOf = (res: ApiResult) => headerNames(res).map((k) => `${k}: ${res.headers.get(k)}`);
      for (const [name, res] of responses) {
        expectProblem(res, 401, '/api/v1/sites');
        expect(res.headers.get('www-authenticate'), name).toMatch(/^Bearer( |$)/);
        expect(normalize(res), name).toBe(normalize(first));
        expect(headersOf(res), name).toEqual(headersOf(first));
        expect(res.headers.get('x-request-id')).toBe(res.json.requestId);
      }
      // Nothing in it tells one case from another.
      expect(new Set(responses.map(([, r]) => r.json.requestId)).size).toBe(responses.length);
    });

    it('is the same on every endpoint, apart from instance', async () => {
      const paths = [
        '/api/v1/sites',
        '/api/v1/reports/totals',
        '/api/v1/reports/by-country',
        '/api/v1/reports/countries',
        '/api/v1/revenues/countries',
        '/api/v1/api-keys',
      ];
      const bodies = new Set<string>();
      for (const path of paths) {
        const res = await get(path);
        const body = expectProblem(res, 401, path);
        bodies.add(JSON.stringify({ ...body, instance: '-', requestId: '-' }));
      }
      for (const [method, path] of [
        ['POST', '/api/v1/api-keys'],
        ['DELETE', `/api/v1/api-keys/${DEMO_IDS.users.demo}`],
        ['POST', `/api/v1/api-keys/for-user/${DEMO_IDS.users.demo}`],
      ] as const) {
        const body = expectProblem(await callApi(method, path, { body: { label: 'x' } }), 401, path);
        bodies.add(JSON.stringify({ ...body, instance: '-', requestId: '-' }));
      }
      expect(bodies.size).toBe(1);
    });

    it('comes before any validation of the query, so a caller without a key learns nothing else', async () => {
      for (const path of [
        '/api/v1/reports/by-country?page=1&page=2',
        '/api/v1/reports/totals?fromDate=nope',
        '/api/v1/sites?bogus=1',
        '/api/v1/revenues/countries?pageSize=0',
      ]) {
        expectProblem(await get(path), 401, path);
      }
    });

    it('rejects a malformed or mistyped key without asking the database', async () => {
      // A database that is down: anything that reached it would be a 503, not a 401.
      const down: Database = await openPostgres('postgres://nobody@127.0.0.1:1/nothing', { max: 1 });
      const { raw } = await demoKey();
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      setDatabase(down);
      try {
        for (const key of [flipOneChar(raw), raw.slice(0, -1), 'rpk_short', `${raw.slice(0, 41)}!`]) {
          expectProblem(await get('/api/v1/sites', { key }), 401, '/api/v1/sites');
        }
        expectProblem(await get('/api/v1/sites', { key: raw }), 503, '/api/v1/sites');
        expect(logged).toHaveBeenCalledTimes(1);
      } finally {
        logged.mockRestore();
        setDatabase(t.database);
        await down.close();
      }
    });
  });

  describe('more than one key', () => {
    it('answers 400 to two different keys in one request and names where they came from', async () => {
      const { raw: a } = await demoKey();
      const { raw: b } = await demoKey();
      const res = await get('/api/v1/sites', { headers: { 'X-Api-Key': a, Authorization: `Bearer ${b}` } });
      expectProblem(res, 400, '/api/v1/sites');
      expect(parameters(res).sort()).toEqual(['Authorization', 'X-Api-Key']);
      expect(visibleText(res)).not.toContain(a);
      expect(visibleText(res)).not.toContain(b);
    });

    it('answers 400 even when one of the two keys is junk, so nothing is guessed', async () => {
      const { raw } = await demoKey();
      const res = await get('/api/v1/sites', { headers: { 'X-Api-Key': raw, Authorization: 'Bearer nonsense' } });
      expectProblem(res, 400, '/api/v1/sites');
    });

    it('answers 400 to different keys in header and query on the legacy feed, or twice in the query', async () => {
      const { raw: a } = await demoKey();
      const { raw: b } = await demoKey();
      const path = '/api/v1/revenues/countries';
      for (const res of [await get(`${path}?apiKey=${b}`, { key: a }), await get(`${path}?apiKey=${a}&apiKey=${b}`)]) {
        expectProblem(res, 400, path);
        expect(visibleText(res)).not.toContain(a);
        expect(visibleText(res)).not.toContain(b);
      }
    });

    it('accepts the same key sent twice', async () => {
      const { raw } = await demoKey();
      const both = await get('/api/v1/sites', { headers: { 'X-Api-Key': raw, Authorization: `Bearer ${raw}` } });
      expect(both.status, both.text).toBe(200);
      const legacy = await get(`/api/v1/revenues/countries?apiKey=${raw}&pageSize=1`, {
        headers: { 'X-Api-Key': raw, Authorization: `bearer ${raw}` },
      });
      expect(legacy.status, legacy.text).toBe(200);
      expect((await get(`/api/v1/revenues/countries?apiKey=${raw}&apiKey=${raw}&pageSize=1`)).status).toBe(200);
    });

    it('reads an X-Api-Key header sent twice (joined with a comma) like two keys', async () => {
      const { raw: a } = await demoKey();
      const { raw: b } = await demoKey();
      expect((await get('/api/v1/sites', { headers: { 'X-Api-Key': `${a}, ${a}` } })).status).toBe(200);
      expectProblem(await get('/api/v1/sites', { headers: { 'X-Api-Key': `${a}, ${b}` } }), 400, '/api/v1/sites');
    });
  });
});

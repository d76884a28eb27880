import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, openApiDocument } from '@/lib/api/endpoints';
import { NDJSON_ITEM } from '@/lib/api/openapi';
import { readEnv, setEnv } from '@/lib/platform/env';
import { get } from '../support/api';
import { assertMatchesContract } from '../support/contract';
import { useTestDatabase } from '../support/db';

useTestDatabase();

describe('GET /api/v1/openapi.json', () => {
  it('serves, without a key, an OpenAPI 3.1 document that a standard validator accepts', async () => {
    const res = await get('/api/v1/openapi.json');
    expect(res.status, res.text).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    expect(await new Validator().validate(res.json)).toEqual({ valid: true });
  });

  it('names the origin the request reached as its server, and keeps the built document free of it', async () => {
    const direct = (await get('/api/v1/openapi.json')).json;
    expect(direct.servers).toEqual([{ url: 'http://localhost', description: 'This server' }]);
    const forwarded = { 'X-Forwarded-Host': 'reports.example.org', 'X-Forwarded-Proto': 'https' };
    // Without a trusted proxy a caller's forwarded headers are not believed: the public, cached document would
    // otherwise name the caller's host.
    const spoofed = await get('/api/v1/openapi.json', { headers: forwarded });
    expect(spoofed.json.servers[0].url).toBe('http://localhost');
    setEnv(readEnv({ ...process.env, TRUST_PROXY: '1' }));
    try {
      const proxied = await get('/api/v1/openapi.json', { headers: forwarded });
      expect(proxied.json.servers[0].url).toBe('https://reports.example.org');
    } finally {
      setEnv(undefined);
    }
    expect(Object.keys(spoofed.json).slice(0, 3)).toEqual(['openapi', 'info', 'servers']);
    expect(openApiDocument()).not.toHaveProperty('servers');
  });

  it('describes every operation, in tags that are described, with a contact and a license', async () => {
    const doc = (await get('/api/v1/openapi.json')).json;
    expect(doc.info.contact).toBeDefined();
    expect(doc.info.license.name).toBeTruthy();
    const tags = new Map(doc.tags.map((t: { name: string; description: string }) => [t.name, t.description]));
    for (const e of ENDPOINTS) {
      const op = doc.paths[e.path][e.method.toLowerCase()];
      expect(op.description, e.operationId).toBeTruthy();
      expect(tags.get(op.tags[0]), e.operationId).toBeTruthy();
    }
  });

  it('has every endpoint of the table, the schema names clients know and the security schemes', async () => {
    const doc = (await get('/api/v1/openapi.json')).json;
    for (const e of ENDPOINTS)
      expect(doc.paths[e.path]?.[e.method.toLowerCase()]?.operationId, e.path).toBe(e.operationId);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'SiteResponse',
        'ApiKeyResponse',
        'CreateApiKeyRequest',
        'CreateApiKeyResponse',
        'RevenueTotalResponse',
        'RevenueByCountryResponse',
        'RevenueWithCountryResponse',
        'PageMeta',
        'Problem',
        'ImportSummary',
      ]),
    );
    expect(doc.components.securitySchemes.apiKeyHeader).toEqual({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('marks the legacy feed deprecated, with the query key on that operation only', async () => {
    const doc = (await get('/api/v1/openapi.json')).json;
    const legacy = doc.paths['/api/v1/revenues/countries'].get;
    expect(legacy.deprecated).toBe(true);
    expect(legacy.security).toContainEqual({ apiKeyQuery: [] });
    const others = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.values(ops as Record<string, { security?: object[] }>).map((op) => [path, op.security ?? []] as const),
    );
    for (const [path, security] of others) {
      if (path !== '/api/v1/revenues/countries') expect(security, path).not.toContainEqual({ apiKeyQuery: [] });
    }
    expect(doc.paths['/api/v1/health'].get.security).toEqual([]);
  });

  it('documents parameters with their formats and limits, and errors as problem+json with rate-limit headers', async () => {
    const doc = (await get('/api/v1/openapi.json')).json;
    const byCountry = doc.paths['/api/v1/reports/by-country'].get;
    const param = (name: string) => byCountry.parameters.find((p: { name: string }) => p.name === name);
    expect(param('pageSize').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 });
    expect(param('fromDate').schema).toMatchObject({ type: 'string', format: 'date' });
    // Enum values match in any letter case: a pattern says so, with the values themselves as examples.
    const direction = param('sortDirection').schema;
    expect(direction.enum).toBeUndefined();
    expect(direction.examples).toEqual(['asc', 'desc']);
    for (const value of ['asc', 'desc', 'DESC', 'Asc']) expect(value).toMatch(new RegExp(direction.pattern));
    for (const value of ['up', 'ascending', 'as', '']) expect(value).not.toMatch(new RegExp(direction.pattern));
    expect(param('sortBy').schema.examples).toContain('revenueAmount');
    expect('REVENUEAMOUNT').toMatch(new RegExp(param('sortBy').schema.pattern));
    // FilterList[country]=US,DE: the style belongs to the parameter, the schema is a map of field to values.
    expect(param('FilterList')).toMatchObject({
      style: 'deepObject',
      explode: true,
      schema: { type: 'object', additionalProperties: { type: 'string' } },
    });
    expect(param('FilterList').schema).not.toHaveProperty('style');
    expect(param('FilterList').description).toMatch(/FilterList\.field/);
    expect(byCountry.responses['429'].content['application/problem+json'].schema.$ref).toBe(
      '#/components/schemas/Problem',
    );
    expect(Object.keys(byCountry.responses['429'].headers)).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'Retry-After']),
    );
    expect(Object.keys(byCountry.responses['200'].content)).toEqual([
      'application/json',
      'text/json',
      'text/plain',
      'text/csv',
    ]);
    expect(doc.paths['/api/v1/admin/revenue'].post.responses['413']).toBeDefined();
  });

  it('types JSON sent as text as a string that holds the JSON, and NDJSON as a string of lines', async () => {
    const doc = (await get('/api/v1/openapi.json')).json;
    const ok = doc.paths['/api/v1/reports/by-country'].get.responses['200'].content;
    for (const type of ['text/json', 'text/plain'])
      expect(ok[type].schema).toEqual({
        type: 'string',
        contentMediaType: 'application/json',
        contentSchema: ok['application/json'].schema,
        description: expect.any(String),
      });
    expect(ok['text/csv'].schema).toEqual({ type: 'string' });
    const exported = doc.paths['/api/v1/reports/countries/export'].get.responses['200'].content;
    expect(exported['application/x-ndjson'].schema).toMatchObject({
      type: 'string',
      contentMediaType: 'application/x-ndjson',
      [NDJSON_ITEM]: { $ref: '#/components/schemas/RevenueWithCountryResponse' },
    });
  });

  it('documents the headers the server sends, with the keyless answers counted per client address', async () => {
    const doc = (await get('/api/v1/openapi.json')).json;
    const headersOf = (path: string, status: string) => Object.keys(doc.paths[path].get.responses[status].headers);
    const every = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id'];
    expect(headersOf('/api/v1/reports/by-country', '200')).toEqual(
      expect.arrayContaining([...every, 'Vary', 'Link', 'X-Total-Rows', 'X-Total-Pages']),
    );
    expect(headersOf('/api/v1/reports/by-country', '503')).toEqual(expect.arrayContaining([...every, 'Retry-After']));
    expect(headersOf('/api/v1/reports/by-country', '401')).toEqual(expect.arrayContaining(['WWW-Authenticate']));
    expect(headersOf('/api/v1/reports/countries/export', '200')).toContain('Content-Disposition');
    for (const status of Object.keys(doc.paths['/api/v1/revenues/countries'].get.responses))
      expect(headersOf('/api/v1/revenues/countries', status)).toEqual(
        expect.arrayContaining(['Deprecation', 'Sunset', 'Link']),
      );
    expect(headersOf('/api/v1/openapi.json', '200')).toEqual(
      expect.arrayContaining(['ETag', 'Cache-Control', 'Access-Control-Allow-Origin']),
    );
    expect(headersOf('/api/v1/health', '200')).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
    // A revalidation's 304 is documented where the server answers one, and nowhere else.
    expect(headersOf('/api/v1/openapi.json', '304')).toEqual(
      expect.arrayContaining(['ETag', 'Cache-Control', 'Access-Control-Allow-Origin', 'X-RateLimit-Limit']),
    );
    expect(headersOf('/api/v1/health', '304')).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
    expect(headersOf('/api/v1/sites', '304')).toEqual(
      expect.arrayContaining(['ETag', 'Last-Modified', 'Cache-Control', 'X-RateLimit-Limit']),
    );
    expect(doc.paths['/api/v1/api-keys'].get.responses['304']).toBeUndefined();
    const remaining = (path: string, status: string) =>
      doc.paths[path].get.responses[status].headers['X-RateLimit-Remaining'].description;
    expect(remaining('/api/v1/health', '200')).toMatch(/client address/);
    expect(remaining('/api/v1/health', '200')).not.toMatch(/key's/);
    expect(remaining('/api/v1/sites', '401')).not.toMatch(/key's/);
    expect(remaining('/api/v1/sites', '200')).toMatch(/API key's/);
  });
});

describe('the contract check every integration test runs on its responses', () => {
  const json = 'application/json; charset=utf-8';
  it('refuses a body that does not match, a status or a content type the document does not list', () => {
    const totals = { totalImpressions: 1, totalRequests: 2, averageCpm: 0, totalRevenue: 0, fillRate: 0.5 };
    expect(() =>
      assertMatchesContract('GET', '/api/v1/reports/totals', 200, json, JSON.stringify(totals)),
    ).not.toThrow();
    expect(() =>
      assertMatchesContract(
        'GET',
        '/api/v1/reports/totals',
        200,
        json,
        JSON.stringify({ ...totals, totalRevenue: '0' }),
      ),
    ).toThrow(/does not match/);
    expect(() =>
      assertMatchesContract('GET', '/api/v1/reports/totals', 200, json, JSON.stringify({ totalImpressions: 1 })),
    ).toThrow(/does not match/);
    expect(() => assertMatchesContract('GET', '/api/v1/reports/totals', 418, json, '{}')).toThrow(/status not in/);
    // JSON sent as text is checked against the schema its string holds.
    for (const type of ['text/plain', 'text/json']) {
      expect(() =>
        assertMatchesContract('GET', '/api/v1/reports/totals', 200, type, JSON.stringify(totals)),
      ).not.toThrow();
      expect(() =>
        assertMatchesContract('GET', '/api/v1/reports/totals', 200, type, JSON.stringify({ totalImpressions: 1 })),
      ).toThrow(/does not match/);
    }
    expect(() => assertMatchesContract('GET', '/api/v1/reports/totals', 200, 'text/csv', 'a')).toThrow(/Content-Type/);
  });
});

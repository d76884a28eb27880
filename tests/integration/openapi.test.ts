import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@/lib/api/endpoints';
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
    expect(param('sortDirection').schema.enum).toEqual(['asc', 'desc']);
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
    expect(() => assertMatchesContract('GET', '/api/v1/reports/totals', 200, 'text/csv', 'a')).toThrow(/Content-Type/);
  });
});

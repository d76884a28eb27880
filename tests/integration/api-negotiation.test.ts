import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '@/db/schema';
import { callApi, get } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey } from '../support/keys';
import { expectProblem } from './api-helpers';

const t = useTestDatabase();
let userId: string;
let key: string;

beforeAll(async () => {
  const user = await createPublisher(t.db);
  userId = user.id;
  await createSite(t.db, user.id);
  await createSite(t.db, user.id, { status: 'pending' });
  key = (await issueKey(user.id)).raw;
});

const JSON_ENDPOINTS = ['/api/v1/sites', '/api/v1/api-keys'];
const mediaType = (contentType: string | null) => contentType?.split(';')[0].trim();

describe('content negotiation on JSON endpoints', () => {
  it('renders the same JSON body as application/json, text/json or text/plain, as asked', async () => {
    for (const path of JSON_ENDPOINTS) {
      const plain = await get(path, { key });
      expect(plain.status, plain.text).toBe(200);
      expect(mediaType(plain.headers.get('content-type'))).toBe('application/json');
      expect(Array.isArray(plain.json)).toBe(true);
      for (const type of ['application/json', 'text/json', 'text/plain']) {
        const res = await get(path, { key, headers: { Accept: type } });
        expect(res.status, `${path} ${type}`).toBe(200);
        expect(mediaType(res.headers.get('content-type'))).toBe(type);
        expect(res.headers.get('content-type')).toMatch(/charset=utf-8/i);
        expect(res.json).toEqual(plain.json);
      }
    }
  });

  it('honours q-values', async () => {
    const cases: [string, string][] = [
      ['text/plain;q=0.5, text/json;q=0.9, application/json;q=0.1', 'text/json'],
      ['application/json;q=0.2, text/plain', 'text/plain'],
      ['text/html, text/plain;q=0.8, */*;q=0.1', 'text/plain'],
      ['application/xml, application/json;q=0.3', 'application/json'],
    ];
    for (const path of JSON_ENDPOINTS) {
      for (const [accept, type] of cases) {
        const res = await get(path, { key, headers: { Accept: accept } });
        expect(res.status).toBe(200);
        expect(mediaType(res.headers.get('content-type')), `${path} ${accept}`).toBe(type);
      }
    }
  });

  it('answers wildcards and charset-qualified types with JSON', async () => {
    for (const accept of ['*/*', 'application/*', '*/*;q=0.8', 'application/json; charset=utf-8', 'Application/JSON']) {
      const res = await get('/api/v1/sites', { key, headers: { Accept: accept } });
      expect(res.status, accept).toBe(200);
      expect(mediaType(res.headers.get('content-type'))).toBe('application/json');
    }
  });

  it('answers 406 problem when only unsupported types are acceptable', async () => {
    for (const path of JSON_ENDPOINTS) {
      for (const accept of ['application/xml', 'text/html', 'text/csv', 'image/*', 'application/json;q=0']) {
        expectProblem(await get(path, { key, headers: { Accept: accept } }), 406, path);
      }
    }
  });

  it('negotiates the create response too, and creates nothing it cannot answer', async () => {
    const count = async () => (await t.db.select().from(apiKeys).where(eq(apiKeys.userId, userId))).length;
    const before = await count();
    const res = await callApi('POST', '/api/v1/api-keys', {
      key,
      body: { label: 'p' },
      headers: { Accept: 'text/plain' },
    });
    expect(res.status, res.text).toBe(200);
    expect(mediaType(res.headers.get('content-type'))).toBe('text/plain');
    expect(res.json.apiKey).toMatch(/^rpk_/);
    const refused = await callApi('POST', '/api/v1/api-keys', {
      key,
      body: {},
      headers: { Accept: 'application/xml' },
    });
    expectProblem(refused, 406, '/api/v1/api-keys');
    expect(await count()).toBe(before + 1);
  });
});

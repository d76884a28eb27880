import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as createKeyRoute } from '@/app/api/v1/api-keys/route';
import { apiKeys } from '@/db/schema';
import { settleBackgroundTasks } from '@/lib/http/background';
import { type ApiResult, callApi } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { issueKey } from '../support/keys';
import { expectProblem, parameters } from './api-helpers';

const t = useTestDatabase();
const PATH = '/api/v1/api-keys';
let userId: string;
let key: string;
let siteId: string;

beforeAll(async () => {
  const user = await createPublisher(t.db);
  userId = user.id;
  siteId = (await createSite(t.db, user.id)).id;
  key = (await issueKey(user.id)).raw;
});

const post = (body: unknown, headers: Record<string, string> = {}) => callApi('POST', PATH, { key, body, headers });
const keyCount = async () =>
  (await t.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, userId))).length;

/** Sends a body as a stream of chunks without Content-Length, straight to the route handler. */
async function postStreamed(chunks: string[], headers: Record<string, string> = {}): Promise<ApiResult> {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
  const request = new Request(`http://localhost${PATH}`, {
    method: 'POST',
    headers: { 'X-Api-Key': key, 'Content-Type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);
  expect(request.headers.get('content-length')).toBeNull();
  const response = await createKeyRoute(request, { params: Promise.resolve({}) });
  await settleBackgroundTasks();
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

describe('request body media types', () => {
  it('accepts application/json, text/json and application/*+json, with or without charset', async () => {
    const types = [
      'application/json',
      'text/json',
      'application/vnd.foo+json',
      'application/json; charset=utf-8',
      'text/json;charset=UTF-8',
      'application/vnd.foo+json; charset=utf-8',
      'Application/JSON',
    ];
    for (const type of types) {
      const res = await post(JSON.stringify({ label: type }), { 'Content-Type': type });
      expect(res.status, `${type}: ${res.text}`).toBe(200);
      expect(res.json.key.label).toBe(type);
    }
  });

  it('answers 415 to a body of another media type, and creates nothing', async () => {
    const before = await keyCount();
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/jsonx',
      'text/json-ish',
    ]) {
      expectProblem(await post('{"label":"x"}', { 'Content-Type': type }), 415, PATH);
    }
    expectProblem(await post('label=x', { 'Content-Type': 'application/x-www-form-urlencoded' }), 415, PATH);
    expect(await keyCount()).toBe(before);
  });

  it('creates a key with defaults from an empty body, whatever its Content-Type', async () => {
    for (const res of [
      await callApi('POST', PATH, { key }),
      await post('', { 'Content-Type': 'text/plain' }),
      await post('{}'),
    ]) {
      expect(res.status, res.text).toBe(200);
      expect(res.json.key).toMatchObject({ label: null, siteIds: null, expiresAt: null, isActive: true });
    }
  });

  it('accepts nulls and an empty siteIds list as "not given"', async () => {
    const res = await post({ label: null, siteIds: null, expiresAt: null });
    expect(res.status, res.text).toBe(200);
    expect(res.json.key).toMatchObject({ label: null, siteIds: null, expiresAt: null });
    const empty = await post({ siteIds: [] });
    expect(empty.status, empty.text).toBe(200);
    expect(empty.json.key.siteIds).toBeNull();
  });
});

describe('request body size', () => {
  const padded = (bytes: number) => {
    const json = JSON.stringify({ label: 'padded' });
    return json.slice(0, -1) + ' '.repeat(bytes - json.length) + '}';
  };

  it('accepts exactly 16 KiB and answers 413 to one byte more, by Content-Length', async () => {
    expect((await post(padded(16 * 1024))).status).toBe(200);
    const before = await keyCount();
    const big = padded(16 * 1024 + 1);
    const res = await post(big, { 'Content-Length': String(Buffer.byteLength(big)) });
    expectProblem(res, 413, PATH);
    expectProblem(await post(padded(1024 * 1024)), 413, PATH);
    // A declared length over the limit is refused before a byte is read.
    expectProblem(await post('{}', { 'Content-Length': String(16 * 1024 + 1) }), 413, PATH);
    expect(await keyCount()).toBe(before);
  });

  it('answers 413 to a streamed body without Content-Length once it passes 16 KiB', async () => {
    const before = await keyCount();
    const chunk = ' '.repeat(4096);
    const res = await postStreamed(['{"label":"streamed"', chunk, chunk, chunk, chunk, '}']);
    expectProblem(res, 413, PATH);
    expect(await keyCount()).toBe(before);
    const fine = await postStreamed(['{"label":', '"streamed"', chunk, '}']);
    expect(fine.status, fine.text).toBe(200);
    expect(fine.json.key.label).toBe('streamed');
  });

  it('counts bytes, not characters', async () => {
    // 6000 three-byte characters: 18,000 bytes in fewer than 16,384 characters.
    const res = await post(JSON.stringify({ label: '€'.repeat(6000) }));
    expectProblem(res, 413, PATH);
  });
});

describe('invalid bodies', () => {
  it('answers 400 naming body to broken JSON', async () => {
    for (const text of ['{', '{"label": "x",}', "{'label': 'x'}", 'label', '{"label": "x"} trailing']) {
      const res = await post(text);
      expectProblem(res, 400, PATH);
      expect(parameters(res), text).toEqual(['body']);
    }
  });

  it('answers 400 naming body to JSON that is not an object', async () => {
    for (const value of [[], [{ label: 'x' }], 'a string', 42, true, null]) {
      const res = await post(JSON.stringify(value));
      expectProblem(res, 400, PATH);
      expect(parameters(res), JSON.stringify(value)).toEqual(['body']);
    }
  });

  it('answers 400 naming every unknown field', async () => {
    const res = await post({ label: 'x', name: 'y', scopes: ['read'] });
    expectProblem(res, 400, PATH);
    expect(parameters(res).sort()).toEqual(['name', 'scopes']);
    const cased = await post({ Label: 'x' });
    expect(parameters(cased)).toEqual(['Label']);
  });

  it('answers 400 naming each field of the wrong type', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ label: 5 }, /^label$/],
      [{ label: { text: 'x' } }, /^label$/],
      [{ siteIds: 'x' }, /^siteIds$/],
      [{ siteIds: siteId }, /^siteIds$/],
      [{ siteIds: ['not-uuid'] }, /^siteIds(\[0\])?$/],
      [{ siteIds: [siteId, 7] }, /^siteIds(\[1\])?$/],
      [{ expiresAt: 'tomorrow' }, /^expiresAt$/],
      [{ expiresAt: 1893456000000 }, /^expiresAt$/],
      [{ expiresAt: '2099-02-30T00:00:00Z' }, /^expiresAt$/],
      [{ label: 'x'.repeat(101) }, /^label$/],
    ];
    const before = await keyCount();
    for (const [body, parameter] of cases) {
      const res = await post(body);
      expectProblem(res, 400, PATH);
      expect(parameters(res), JSON.stringify(body)).toHaveLength(1);
      expect(parameters(res)[0], JSON.stringify(body)).toMatch(parameter);
    }
    const all = await post({ label: 5, siteIds: 'x', expiresAt: 'tomorrow' });
    expect(parameters(all).sort()).toEqual(['expiresAt', 'label', 'siteIds']);
    expect(await keyCount()).toBe(before);
  });

  it('answers 400 to a NUL character rather than failing in the database', async () => {
    const res = await post({ label: 'a\u0000b' });
    expectProblem(res, 400, PATH);
    expect(parameters(res)).toEqual(['label']);
  });

  it('checks the body only for an authenticated caller', async () => {
    const res = await callApi('POST', PATH, { body: '{', headers: { 'Content-Type': 'text/plain' } });
    expectProblem(res, 401, PATH);
  });
});

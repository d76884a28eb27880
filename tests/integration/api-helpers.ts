/** Assertions shared by the tests/integration/api-*.test.ts files (not a test file itself). */
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '@/db/client';
import { apiKeys } from '@/db/schema';
import type { ApiResult } from '../support/api';

/** RFC 9457 body with the members every problem carries; `instance` is the path alone, never the query. */
export function expectProblem(res: ApiResult, status: number, path: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json(;|$)/);
  const body = res.json;
  expect(body).toBeTypeOf('object');
  expect(body.type).toBeTypeOf('string');
  expect(body.title).toBeTypeOf('string');
  expect(body.title.length).toBeGreaterThan(0);
  expect(body.status).toBe(status);
  expect(body.detail).toBeTypeOf('string');
  expect(body.detail.length).toBeGreaterThan(0);
  expect(body.instance).toBe(new URL(path, 'http://localhost').pathname);
  if (status === 400) {
    expect(Array.isArray(body.errors)).toBe(true);
    expect(body.errors.length).toBeGreaterThan(0);
    for (const e of body.errors) {
      expect(e.parameter).toBeTypeOf('string');
      expect(e.detail).toBeTypeOf('string');
    }
  }
  return body;
}

/** The `parameter`s of a 400 problem. */
export const parameters = (res: ApiResult): string[] =>
  (res.json?.errors ?? []).map((e: { parameter: string }) => e.parameter);

/** Everything a client can see of a response: status line aside, every header and the body. */
export function visibleText(res: ApiResult): string {
  return [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n') + '\n\n' + res.text;
}

/** The stored api_keys row, read straight from the database. */
export async function keyRow(db: Db, id: string) {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return row;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The fields of ApiKeyResponse, no more and no less. */
export const API_KEY_FIELDS = [
  'createdAt',
  'expiresAt',
  'id',
  'isActive',
  'keyPrefix',
  'label',
  'lastUsedAt',
  'revokedAt',
  'siteIds',
];

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PAGED_TYPES, type ApiEndpoint } from '@/lib/api/endpoint';
import { ENDPOINTS } from '@/lib/api/endpoints';

/**
 * Issue 40, point 4: the API's idioms for the operations beyond the spec, as docs/architecture.md ("The API's
 * idioms") writes them. The spec's own operations (`spec: true`) keep the spec's shapes.
 */
const OURS = ENDPOINTS.filter((e) => !e.spec);
const PAGING_PARAMS = ['page', 'pageSize', 'sortBy', 'sortDirection', 'Search', 'Filter', 'FilterList'];

const endsWithId = (path: string) => path.endsWith('}');
const isPage = (schema: z.ZodType | undefined) =>
  schema instanceof z.ZodObject && 'data' in schema.shape && 'meta' in schema.shape;
const isOneResource = (schema: z.ZodType | undefined) => schema instanceof z.ZodObject && !isPage(schema);
const name = (e: ApiEndpoint) => `${e.method} ${e.path}`;
/** Ours by method, never empty: a rule checked over nothing proves nothing. */
const ours = (method: ApiEndpoint['method'], where: (e: ApiEndpoint) => boolean = () => true) => {
  const found = OURS.filter((e) => e.method === method && where(e));
  expect(found.length, `operations checked: ${method}`).toBeGreaterThan(0);
  return found;
};

describe("the API's idioms beyond the spec", () => {
  it('knows the nine operations of the spec by their mark, and nothing else carries it', () => {
    expect(ENDPOINTS.filter((e) => e.spec).map((e) => e.operationId)).toEqual(
      expect.arrayContaining([
        'listSites',
        'getTotals',
        'getRevenueByCountry',
        'getCountryRows',
        'getLegacyCountryRows',
        'listApiKeys',
        'createApiKey',
        'revokeApiKey',
        'createApiKeyForUser',
      ]),
    );
    expect(ENDPOINTS.filter((e) => e.spec)).toHaveLength(9);
  });

  it('a list is a page ({data, meta}) with the query grammar, as JSON or CSV; never a bare array', () => {
    for (const e of ours('GET')) {
      const schema = e.response.schema;
      expect(schema instanceof z.ZodArray, `${name(e)} answers a bare array`).toBe(false);
      if (!isPage(schema)) continue;
      expect(e.response.mediaTypes, `${name(e)}'s media types`).toEqual(PAGED_TYPES);
      expect(Object.keys(e.query?.in.shape ?? {}), `${name(e)}'s parameters`).toEqual(
        expect.arrayContaining(PAGING_PARAMS),
      );
    }
  });

  it('a GET answers one resource, a page or a file', () => {
    for (const e of ours('GET', (o) => o.tag !== 'Service')) {
      const { schema } = e.response;
      expect(isPage(schema) || isOneResource(schema) || e.download !== undefined, name(e)).toBe(true);
    }
  });

  it('an edit is a PATCH of one resource with a body, answering the resource as it is now', () => {
    for (const e of ours('PATCH')) {
      expect(endsWithId(e.path), `${name(e)} edits one resource`).toBe(true);
      expect(e.body, `${name(e)} has a body`).toBeDefined();
      expect(isOneResource(e.response.schema), `${name(e)} answers the resource`).toBe(true);
      expect(e.errors, `${name(e)} refuses a move its state does not allow`).toContain(409);
    }
  });

  it('a POST adds to a collection or acts on one resource (…/{id}/<action>), answering what it made or the resource', () => {
    for (const e of ours('POST')) {
      expect(endsWithId(e.path), `${name(e)}: POST to a resource's own path`).toBe(false);
      expect(isOneResource(e.response.schema), `${name(e)} answers one object`).toBe(true);
      if (/\}\/[a-z-]+$/.test(e.path)) {
        // An action happens once: asking again for what already happened is a conflict naming the state.
        expect(e.errors, `${name(e)} answers 409 when the resource's state refuses the action`).toContain(409);
        expect(e.errors, `${name(e)} answers 404 for an unknown resource`).toContain(404);
      }
    }
  });

  it('a removal is a DELETE of one resource, answering 200 with no body; PUT is not used', () => {
    for (const e of ENDPOINTS.filter((o) => o.method === 'DELETE')) {
      expect(endsWithId(e.path), name(e)).toBe(true);
      expect(e.body ?? e.response.schema, name(e)).toBeUndefined();
    }
    expect(ENDPOINTS.filter((e) => e.method === 'PUT')).toEqual([]);
  });

  it('every success is a 200', () => {
    for (const e of ENDPOINTS) expect(e.response.status, name(e)).toBe(200);
  });
});

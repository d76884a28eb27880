/**
 * The OpenAPI 3.1 document of the API, generated from the endpoint table and its zod schemas, served at
 * GET /api/v1/openapi.json and rendered at /docs.
 */
import { z } from 'zod';
import {
  MAX_CONCURRENT_REPORTS_PER_KEY,
  REQUEST_DEADLINE_MS,
  REQUEST_STATEMENT_TIMEOUT_MS,
} from '@/lib/platform/limits';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { keyLimit } from '@/lib/ratelimit';
import { STATUS_OF } from '@/lib/http/problem';
import type { ApiEndpoint } from './endpoint';
import { Problem } from './schemas';

const PROBLEM_TYPE = 'application/problem+json';
/** The three JSON media types every JSON endpoint offers (chosen by Accept). */
const JSON_TYPES = ['application/json', 'text/json', 'text/plain'] as const;
/** Any operation may answer these: an unknown or repeated parameter or two keys (400), an Accept it cannot meet (406). */
const ALWAYS = [400, 406, 429, 500, 503];
const rateLimitHeaders = z.object({
  'X-RateLimit-Limit': z.int().meta({ description: 'Requests allowed per key per clock minute' }),
  'X-RateLimit-Remaining': z.int().meta({ description: 'Requests left in the current minute' }),
  'X-Request-Id': z.string().meta({ description: 'Quote it when reporting a problem' }),
});

/** What each error status means on this API, beyond its code's title. */
const ERROR_MEANING: Record<number, string> = {
  400: 'Invalid parameters or body: `errors` names each one',
  401: 'No valid API key (missing, unknown, revoked or expired)',
  403: 'The key may not do this: a site outside its scope, or an account-level operation with a site-scoped key',
  404: 'No such resource for this account',
  409: 'The account already holds the most active API keys it may (revoke one first)',
  406: 'None of the Accept media types can be produced',
  413: 'The body has too many rows or bytes',
  415: 'Unsupported Content-Type',
  429: `Rate limit reached, or the key already has ${MAX_CONCURRENT_REPORTS_PER_KEY} reports running: see Retry-After`,
  500: 'Unexpected error: quote the requestId',
  503: `The database is unavailable or did not answer within ${REQUEST_DEADLINE_MS / 1000} s, or the query ran past the ${REQUEST_STATEMENT_TIMEOUT_MS / 1000} s a statement may use: see Retry-After`,
};

function errorResponse(status: number) {
  const title = Object.values(STATUS_OF).find((s) => s.status === status)?.title;
  const headers =
    status === 429 || status === 503
      ? rateLimitHeaders.extend({ 'Retry-After': z.int().meta({ description: 'Seconds to wait' }) })
      : rateLimitHeaders;
  return {
    description: `${title ?? ''} ${title ? '— ' : ''}${ERROR_MEANING[status]}`.trim(),
    headers,
    content: { [PROBLEM_TYPE]: { schema: Problem } },
  };
}

function content(endpoint: ApiEndpoint) {
  const { schema, mediaTypes = JSON_TYPES } = endpoint.response;
  if (!schema) return undefined;
  return Object.fromEntries(
    // NDJSON: each line is one value of the schema.
    mediaTypes.map((type) => [type, { schema: type === 'text/csv' ? z.string() : schema }]),
  );
}

function operation(endpoint: ApiEndpoint): ZodOpenApiOperationObject {
  const keyed = endpoint.access !== 'public';
  const statuses = [...(keyed ? [401] : []), ...(endpoint.body ? [413, 415] : []), ...endpoint.errors, ...ALWAYS].sort(
    (a, b) => a - b,
  );
  const responses: ZodOpenApiResponsesObject = {
    [endpoint.response.status]: {
      description: endpoint.response.description,
      headers: rateLimitHeaders,
      content: content(endpoint),
    },
    ...Object.fromEntries([...new Set(statuses)].map((s) => [s, errorResponse(s)])),
  };
  const body = endpoint.body;
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    tags: [endpoint.tag],
    ...(endpoint.deprecated ? { deprecated: true } : {}),
    security: !keyed
      ? []
      : [{ apiKeyHeader: [] }, { bearer: [] }, ...(endpoint.run.keyInQuery ? [{ apiKeyQuery: [] }] : [])],
    requestParams: {
      ...(endpoint.query ? { query: endpoint.query.in } : {}),
      ...(endpoint.pathParams ? { path: endpoint.pathParams } : {}),
    },
    ...(body
      ? {
          requestBody: {
            required: true,
            content:
              body instanceof z.ZodType
                ? { 'application/json': { schema: body } }
                : Object.fromEntries(
                    body.mediaTypes.map((t) => [t, { schema: z.string().meta({ description: body.description }) }]),
                  ),
          },
        }
      : {}),
    responses,
  };
}

let cached: ReturnType<typeof createDocument> | undefined;

export function openApiDocumentOf(endpoints: readonly ApiEndpoint[]) {
  if (cached) return cached;
  const paths: Record<string, Record<string, ZodOpenApiOperationObject>> = {};
  for (const endpoint of endpoints) (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = operation(endpoint);
  cached = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Publisher Portal reporting API',
      version: '1.0.0',
      description: `Revenue of web-game publishers' sites by day and country. Every request needs an API key except the health check and this document. Each key may make ${keyLimit()} requests per clock minute. Parameter names match in any letter case.`,
    },
    security: [{ apiKeyHeader: [] }, { bearer: [] }],
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The same key as `Authorization: Bearer <key>`' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey', description: 'Only on the deprecated legacy feed' },
      },
    },
    paths,
  });
  return cached;
}

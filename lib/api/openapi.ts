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
import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { addressLimit, keyLimit } from '@/lib/ratelimit';
import { NDJSON_TYPE } from '@/lib/http/negotiate';
import { STATUS_OF } from '@/lib/http/problem';
import { TAGS, type ApiEndpoint } from './endpoint';
import {
  attachment,
  ACCOUNT_DATA,
  CACHEABLE,
  CORS,
  everyAnswer,
  LEGACY,
  PAGED,
  RETRY_AFTER,
  VARY,
  WWW_AUTHENTICATE,
} from './openapi-headers';
import { Problem } from './schemas';

/** Where an NDJSON answer's string schema keeps the schema of one line (OpenAPI 3.1 has no item schema). */
export const NDJSON_ITEM = 'x-ndjson-item';

const PROBLEM_TYPE = 'application/problem+json';
/** The three JSON media types every JSON endpoint offers (chosen by Accept). */
const JSON_TYPES = ['application/json', 'text/json', 'text/plain'] as const;
/** Any operation may answer these: an unknown or repeated parameter or two keys (400), an Accept it cannot meet (406). */
const ALWAYS = [400, 406, 429, 500, 503];
/** Answers that come only after the key was checked: they spent the key's budget. */
const AFTER_THE_KEY = new Set([403, 404, 409, 413, 415]);

/** What each error status means on this API, beyond its code's title. */
const ERROR_MEANING: Record<number, string> = {
  400: 'Invalid parameters or body: `errors` names each one',
  401: 'No valid API key (missing, unknown, revoked or expired)',
  403: 'The key may not do this: a site outside its scope, or an account-level operation with a site-scoped key',
  404: 'No such resource for this account',
  409: 'The request conflicts with what is stored, as `detail` says: the account already holds the most active API keys it may (revoke one first), or a site cannot make that move from its status',
  406: 'None of the Accept media types can be produced',
  413: 'The body has too many rows or bytes',
  415: 'Unsupported Content-Type',
  429: `Rate limit reached, or the key already has ${MAX_CONCURRENT_REPORTS_PER_KEY} reports running: see Retry-After`,
  500: 'Unexpected error: quote the requestId',
  503: `The database is unavailable or did not answer within ${REQUEST_DEADLINE_MS / 1000} s, or the query ran past the ${REQUEST_STATEMENT_TIMEOUT_MS / 1000} s a statement may use: see Retry-After`,
};

function errorResponse(endpoint: ApiEndpoint, status: number) {
  const title = Object.values(STATUS_OF).find((s) => s.status === status)?.title;
  const budget =
    endpoint.access === 'public' || status === 401 ? 'address' : AFTER_THE_KEY.has(status) ? 'key' : 'either';
  return {
    description: `${title ?? ''} ${title ? '— ' : ''}${ERROR_MEANING[status]}`.trim(),
    headers: {
      ...everyAnswer(budget),
      ...(status === 429 || status === 503 ? RETRY_AFTER : {}),
      ...(status === 401 ? WWW_AUTHENTICATE : {}),
      ...fixedHeaders(endpoint),
    },
    content: { [PROBLEM_TYPE]: { schema: Problem } },
  };
}

/** The headers an endpoint sets on all its answers (the legacy feed's notice), each as LEGACY words it. */
function fixedHeaders(endpoint: ApiEndpoint) {
  return Object.fromEntries(
    Object.keys(endpoint.headers ?? {}).map((name) => {
      if (!LEGACY[name])
        throw new Error(`${endpoint.operationId} sends ${name}, which lib/api/openapi-headers.ts does not describe`);
      return [name, LEGACY[name]];
    }),
  );
}

/** The success's headers: what every answer has, then what this endpoint's way of answering adds. */
/** Validators of a success, and how it may be cached: by content (lib/http/etag.ts) or by the account's data. */
const validatorsOf = (endpoint: ApiEndpoint) =>
  endpoint.run.cacheControl ? CACHEABLE : endpoint.run.accountData ? ACCOUNT_DATA : undefined;

/** A cacheable answer revalidated: If-None-Match (or If-Modified-Since) named its current validators. */
function notModified(endpoint: ApiEndpoint) {
  const access = endpoint.access === 'public' ? 'address' : 'key';
  return {
    description: 'Not Modified: the ETag sent as If-None-Match still matches; no body',
    headers: {
      ...everyAnswer(access),
      ...validatorsOf(endpoint),
      ...(endpoint.run.anyOrigin ? CORS : {}),
      ...fixedHeaders(endpoint),
    },
  };
}

function successHeaders(endpoint: ApiEndpoint) {
  const paged = !!endpoint.run.csvColumns;
  return {
    ...everyAnswer(endpoint.access === 'public' ? 'address' : 'key'),
    ...(endpoint.response.schema ? VARY : {}),
    ...(paged ? PAGED : {}),
    ...(endpoint.download ? attachment(endpoint.download) : {}),
    ...validatorsOf(endpoint),
    ...(endpoint.run.anyOrigin ? CORS : {}),
    ...fixedHeaders(endpoint),
  };
}

/**
 * The success's media types. Only application/json is parsed as JSON by tools: the same JSON text sent as
 * text/json or text/plain is a string whose content is that schema; an NDJSON export is a string of lines, each
 * one value of the schema; CSV is a string.
 */
function content(endpoint: ApiEndpoint) {
  const { schema, mediaTypes = JSON_TYPES } = endpoint.response;
  if (!schema) return undefined;
  return Object.fromEntries(
    mediaTypes.map((type) => [
      type,
      { schema: type === 'application/json' || type === NDJSON_TYPE ? schema : z.string() },
    ]),
  );
}

/** Moves the JSON schema of each text answer into its string schema (see content), once the schemas are JSON. */
function describeTextAnswers(paths: Record<string, Record<string, oas31.OperationObject>>): void {
  for (const operation of Object.values(paths).flatMap((methods) => Object.values(methods))) {
    const media = (operation.responses?.['200'] as oas31.ResponseObject | undefined)?.content;
    if (!media) continue;
    const json = media['application/json']?.schema;
    for (const type of ['text/json', 'text/plain'] as const) {
      if (media[type] && json)
        media[type].schema = {
          type: 'string',
          contentMediaType: 'application/json',
          description: 'JSON text, the same as the application/json answer',
          // JSON Schema 2020-12's keyword for what a string holds (oas31's types predate it).
          ...{ contentSchema: json },
        };
    }
    const ndjson = media[NDJSON_TYPE];
    if (ndjson?.schema) {
      const item = ('$ref' in ndjson.schema && ndjson.schema.$ref?.split('/').pop()) || 'value of x-ndjson-item';
      ndjson.schema = {
        type: 'string',
        contentMediaType: NDJSON_TYPE,
        description: `One JSON object per line, each a ${item}`,
        [NDJSON_ITEM]: ndjson.schema,
      };
    }
  }
}

function operation(endpoint: ApiEndpoint): ZodOpenApiOperationObject {
  const keyed = endpoint.access !== 'public';
  const statuses = [...(keyed ? [401] : []), ...(endpoint.body ? [413, 415] : []), ...endpoint.errors, ...ALWAYS].sort(
    (a, b) => a - b,
  );
  const responses: ZodOpenApiResponsesObject = {
    [endpoint.response.status]: {
      description: endpoint.response.description,
      headers: successHeaders(endpoint),
      content: content(endpoint),
    },
    ...(validatorsOf(endpoint) ? { 304: notModified(endpoint) } : {}),
    ...Object.fromEntries([...new Set(statuses)].map((s) => [s, errorResponse(endpoint, s)])),
  };
  const body = endpoint.body;
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
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

/** The server matches query parameter names in any letter case: each one says so, for readers of one operation. */
function noteNamesInAnyCase(paths: Record<string, Record<string, oas31.OperationObject>>): void {
  for (const operation of Object.values(paths).flatMap((methods) => Object.values(methods))) {
    for (const parameter of (operation.parameters ?? []) as oas31.ParameterObject[]) {
      if (parameter.in === 'query')
        parameter.description = `${parameter.description ?? ''} The name matches in any letter case.`.trim();
    }
  }
}

let cached: oas31.OpenAPIObject | undefined;

/**
 * The document without servers (built once): who serves it adds them, the API the origin the request
 * reached (withServers), the file written for the linters a placeholder.
 */
export function openApiDocumentOf(endpoints: readonly ApiEndpoint[]): oas31.OpenAPIObject {
  if (cached) return cached;
  const paths: Record<string, Record<string, ZodOpenApiOperationObject>> = {};
  for (const endpoint of endpoints) (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = operation(endpoint);
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Publisher Portal reporting API',
      version: '1.0.0',
      description: `Revenue of web-game publishers' sites by day and country. Every request needs an API key except the health check and this document. Each key may make ${keyLimit()} requests per clock minute; requests without a valid key, ${addressLimit()} per client address. Parameter names match in any letter case (\`pagesize\` is \`pageSize\`), and so do the values of sortBy and sortDirection.`,
      contact: { name: 'Publisher Portal security', email: 'security@publisher-portal.example' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
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
  const generated = document.paths as Record<string, Record<string, oas31.OperationObject>>;
  describeTextAnswers(generated);
  noteNamesInAnyCase(generated);
  cached = document;
  return cached;
}

/** The document with its servers, after info as readers expect (the cached one is left as it is). */
export function withServers(document: oas31.OpenAPIObject, servers: oas31.ServerObject[]): oas31.OpenAPIObject {
  const { openapi, info, ...rest } = document;
  return { openapi, info, servers, ...rest };
}

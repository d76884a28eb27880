/**
 * The one table of the API's endpoints: method, path, access, parameters, body, response, errors. The route
 * files (lib/api/routes.ts), the OpenAPI document (lib/api/openapi.ts), the reference page at /docs and the
 * tests' route table are all made from it; nothing else lists endpoints.
 */
import { z } from 'zod';
import { Health } from './schemas';
import { endpoint, type ApiEndpoint } from './endpoint';
import { ACTIVITY_ENDPOINTS } from './endpoints/activity';
import { ALERT_ENDPOINTS } from './endpoints/alerts';
import { WEBHOOK_ENDPOINTS } from './endpoints/webhooks';
import { DATA_ENDPOINTS } from './endpoints/data';
import { KEY_ENDPOINTS } from './endpoints/keys';
import { PAYMENT_ENDPOINTS } from './endpoints/payments';
import { PUBLISHER_ENDPOINTS } from './endpoints/publishers';
import { REPORT_ENDPOINTS } from './endpoints/reports';
import { SITE_REVIEW_ENDPOINTS } from './endpoints/site-review';
import { openApiDocumentOf, withServers } from './openapi';
import { originOf } from './origin';

/** The service's own operations, here because the document's handler needs the whole table. */
const SERVICE_ENDPOINTS: ApiEndpoint[] = [
  endpoint({
    method: 'GET',
    path: '/api/v1/health',
    operationId: 'getHealth',
    tag: 'Service',
    access: 'public',
    summary: 'Liveness: a constant answer, no key and no database',
    description:
      'Answers `{"status":"ok"}` while the server runs; it does not touch the database, so it stays up during a database outage.',
    response: { status: 200, description: 'The service is up', schema: Health },
    errors: [],
    // Caches may keep it but must ask again each time (no-cache): a liveness answer nobody checked says nothing.
    run: { cacheControl: 'no-cache', handler: async () => ({ status: 'ok' }) },
  }),
  endpoint({
    method: 'GET',
    path: '/api/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Service',
    access: 'public',
    summary: 'This document: the API contract as OpenAPI 3.1, no key needed',
    description: 'The OpenAPI 3.1 document of every operation; its servers entry is the origin the request reached.',
    response: { status: 200, description: 'The OpenAPI document', schema: z.looseObject({ openapi: z.string() }) },
    errors: [],
    run: {
      cacheControl: 'public, max-age=300',
      anyOrigin: true,
      handler: async ({ request }) =>
        withServers(openApiDocument(), [{ url: originOf(request.headers, request.url), description: 'This server' }]),
    },
  }),
];

export const ENDPOINTS: ApiEndpoint[] = [
  ...SERVICE_ENDPOINTS,
  ...REPORT_ENDPOINTS,
  ...KEY_ENDPOINTS,
  ...ACTIVITY_ENDPOINTS,
  ...ALERT_ENDPOINTS,
  ...WEBHOOK_ENDPOINTS,
  ...PAYMENT_ENDPOINTS,
  ...PUBLISHER_ENDPOINTS,
  ...DATA_ENDPOINTS,
  ...SITE_REVIEW_ENDPOINTS,
];

/** The OpenAPI document of this table (built once). */
export const openApiDocument = () => openApiDocumentOf(ENDPOINTS);

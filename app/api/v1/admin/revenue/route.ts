import { defineRoutes } from '@/lib/http/api-route';
import { streamBody } from '@/lib/http/body';
import { INGEST_MAX_BYTES, ingestRevenue } from '@/lib/services/revenue-ingest';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoutes({
  POST: {
    params: ['owner'],
    handler: ({ principal, request, query }) =>
      ingestRevenue(principal, {
        contentType: request.headers.get('content-type'),
        body: streamBody(request, INGEST_MAX_BYTES),
        owner: query.get('owner') ?? null,
      }),
  },
});

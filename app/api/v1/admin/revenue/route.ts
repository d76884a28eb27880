import { defineRoutes } from '@/lib/http/api-route';
import { streamBody } from '@/lib/http/body';
import { ProblemError } from '@/lib/http/problem';
import { formatFromName } from '@/lib/import/parse';
import { INGEST_MAX_BYTES, INGEST_MEDIA_TYPES, ingestRevenue } from '@/lib/services/revenue-ingest';

/** The body's format from its Content-Type, or 415 naming the two that are accepted. */
function bodyFormat(contentType: string | null) {
  const format = contentType ? formatFromName(contentType) : null;
  if (format) return format;
  throw new ProblemError({
    status: 415,
    title: 'Unsupported Media Type',
    detail: `Content-Type: send the rows as text/csv (with a header line) or application/x-ndjson${
      contentType ? `, not ${contentType}` : ''
    }.`,
    headers: { 'Accept-Post': INGEST_MEDIA_TYPES },
  });
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoutes({
  POST: {
    params: ['owner'],
    handler: ({ principal, request, query }) =>
      ingestRevenue(principal, {
        format: bodyFormat(request.headers.get('content-type')),
        body: streamBody(request, INGEST_MAX_BYTES),
        owner: query.get('owner') ?? null,
      }),
  },
});

/** Revenue in: the ad network's daily numbers, loaded by operators. */
import { streamBody } from '@/lib/http/body';
import { ImportSummary, INGEST_MAX_BYTES, ingestQuery, ingestRevenue } from '@/lib/revenue-in';
import { INGEST_REQUEST_DEADLINE_MS } from '@/lib/platform/limits';
import { bodyFormat, INGEST_BODY_TYPES } from '../ingest-body';
import { endpoint, type ApiEndpoint } from '../endpoint';

export const DATA_ENDPOINTS: ApiEndpoint[] = [
  endpoint({
    method: 'POST',
    path: '/api/v1/admin/revenue',
    operationId: 'ingestRevenue',
    tag: 'Data',
    access: 'operator',
    summary: 'Operators: upsert daily revenue rows (CSV or NDJSON), all or nothing',
    description: 'The same validation and upsert as `npm run import`: at most 50,000 rows and 16 MiB per request.',
    query: ingestQuery,
    body: { mediaTypes: INGEST_BODY_TYPES, description: 'CSV with a header line, or one JSON object per line' },
    response: { status: 200, description: 'What the import did', schema: ImportSummary },
    errors: [400, 403, 413, 415],
    run: {
      deadlineMs: INGEST_REQUEST_DEADLINE_MS,
      handler: ({ principal, request, input }) =>
        ingestRevenue(principal, {
          format: bodyFormat(request.headers.get('content-type')),
          body: streamBody(request, INGEST_MAX_BYTES),
          owner: input.owner,
        }),
    },
  }),
];

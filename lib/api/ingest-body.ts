import { ProblemError } from '@/lib/http/problem';
import { formatFromName, type ImportFormat } from '@/lib/revenue-in';

/** The media types the ingestion endpoint reads. */
export const INGEST_BODY_TYPES = ['text/csv', 'application/x-ndjson'] as const;

/** The body's format from its Content-Type, or 415 naming the two that are accepted. */
export function bodyFormat(contentType: string | null): ImportFormat {
  const format = contentType ? formatFromName(contentType) : null;
  if (format) return format;
  throw new ProblemError({
    status: 415,
    title: 'Unsupported Media Type',
    detail: `Content-Type: send the rows as text/csv (with a header line) or application/x-ndjson${
      contentType ? `, not ${contentType}` : ''
    }.`,
    headers: { 'Accept-Post': INGEST_BODY_TYPES.join(', ') },
  });
}

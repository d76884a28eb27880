import { csvTable } from '@/lib/csv';
import { CSV_TYPE } from './negotiate';
import { log } from '@/lib/log';

interface PagedBody {
  data: Record<string, unknown>[];
  meta: { page: number; pageSize: number; totalRows: number; totalPages: number };
}

function isPaged(value: unknown): value is PagedBody {
  return typeof value === 'object' && value !== null && Array.isArray((value as PagedBody).data) && 'meta' in value;
}

/**
 * What a handler returns to stream its answer (the bulk export) instead of one value: the body's text in
 * chunks, already in the negotiated media type, and the file name a browser should save it under.
 */
export class StreamedBody {
  constructor(
    readonly chunks: AsyncIterable<string>,
    readonly filename: string,
  ) {}
}

/**
 * A handler's result as the negotiated media type. `undefined` is the spec's "no body" 200 (DELETE).
 * CSV carries the rows of the page; the paging figures go into headers since CSV has no envelope.
 */
export function renderBody(
  result: unknown,
  type: string,
  csvColumns: readonly string[] | undefined,
  headers: Headers,
): Response {
  if (result === undefined) return new Response(null, { status: 200, headers });
  headers.set('Content-Type', `${type}; charset=utf-8`);
  if (type === CSV_TYPE && csvColumns && isPaged(result)) {
    const { meta } = result;
    headers.set('X-Total-Rows', String(meta.totalRows));
    headers.set('X-Total-Pages', String(meta.totalPages));
    const csv = csvTable(result.data, csvColumns);
    return new Response(csv, { status: 200, headers });
  }
  return new Response(JSON.stringify(result), { status: 200, headers });
}

/**
 * A StreamedBody as a response whose body is read on demand: each read pulls the next chunk, so a slow client
 * slows the database read down instead of filling memory, and a client that goes away cancels the stream,
 * which stops the iterator (closing its cursor). The first chunk is awaited before answering, so a failure at
 * the start is still a problem response. A failure after the status line has gone out can no longer be one:
 * it is logged and errors the body, so the client sees a truncated transfer, never a clean end.
 */
export async function streamResponse(body: StreamedBody, type: string, headers: Headers): Promise<Response> {
  const iterator = body.chunks[Symbol.asyncIterator]();
  let first: IteratorResult<string> | undefined = await iterator.next();
  const requestId = headers.get('X-Request-Id');
  const encoder = new TextEncoder();
  // A cancel can arrive while a pull waits for its chunk; that chunk then has nowhere to go.
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = first ?? (await iterator.next());
        first = undefined;
        if (cancelled) return;
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (err) {
        if (cancelled) return;
        log.error({ requestId, err }, 'streamed response failed');
        controller.error(err);
      }
    },
    async cancel() {
      cancelled = true;
      await iterator.return?.();
    },
  });
  headers.set('Content-Type', `${type}; charset=utf-8`);
  headers.set('Content-Disposition', `attachment; filename="${body.filename}"`);
  return new Response(stream, { status: 200, headers });
}

import { csvTable } from '@/lib/shared/csv';
import { CSV_TYPE } from './negotiate';
import { exportLimits, ownServer } from '@/lib/platform/env';
import { BODY_BYTES_HEADER } from '@/lib/platform/own-server.mjs';
import { log } from '@/lib/platform/log';
import { cacheableResponse } from './etag';
import { pagingLinks } from './paging-links';

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
    /** The account whose data it is: exports are counted per account (lib/http/report-slots.ts). */
    readonly accountId: string,
  ) {}
}

/** What a handler returns to answer with a file made whole in memory (a statement's PDF), in the negotiated type. */
export class FileBody {
  constructor(
    readonly bytes: Uint8Array,
    readonly filename: string,
  ) {}
}

/** A FileBody as a download. */
export function fileResponse(body: FileBody, type: string, headers: Headers): Response {
  headers.set('Content-Type', type);
  headers.set('Content-Disposition', `attachment; filename="${body.filename}"`);
  headers.set('Content-Length', String(body.bytes.byteLength));
  return new Response(body.bytes as BodyInit, { status: 200, headers });
}

interface RenderOptions {
  /** The request answered: paged answers link to its other pages, cacheable ones read If-None-Match. */
  request: Request;
  /** Columns of the rows when the answer may be CSV (paged reports). */
  csvColumns?: readonly string[];
  /** Cache-Control of a cacheable answer, which then carries an ETag (lib/http/etag.ts). */
  cacheControl?: string;
}

/**
 * A handler's result as the negotiated media type. `undefined` is a 200 without a body (DELETE).
 * A paged answer links to its first, previous, next and last pages (Link, after any Link the endpoint
 * sets itself). CSV carries the rows of the page; the paging figures go into headers since CSV has no envelope.
 */
export function renderBody(result: unknown, type: string, headers: Headers, options: RenderOptions): Response {
  if (result === undefined) return new Response(null, { status: 200, headers });
  headers.set('Content-Type', `${type}; charset=utf-8`);
  let body: string;
  if (isPaged(result)) headers.append('Link', pagingLinks(new URL(options.request.url), result.meta));
  if (type === CSV_TYPE && options.csvColumns && isPaged(result)) {
    const { meta } = result;
    headers.set('X-Total-Rows', String(meta.totalRows));
    headers.set('X-Total-Pages', String(meta.totalPages));
    body = csvTable(result.data, options.csvColumns);
  } else {
    body = JSON.stringify(result);
  }
  // Under our server, its length lets a small answer go uncompressed (scripts/serve.mjs).
  if (ownServer.stampSecret()) headers.set(BODY_BYTES_HEADER, String(Buffer.byteLength(body)));
  if (options.cacheControl) return cacheableResponse(body, options.request, headers, options.cacheControl);
  return new Response(body, { status: 200, headers });
}

/** How long a download may wait for its client, and run in all. */
export type TransferLimits = ReturnType<typeof exportLimits>;

/**
 * A StreamedBody as a response whose body is read on demand: nothing is read before the client's first read
 * (a HEAD or a body nobody reads opens no cursor), each read pulls the next chunk, so a slow client slows the
 * database read down instead of filling memory, and a client that goes away cancels the stream, which stops
 * the iterator (closing its cursor). A client that stops reading for `stallMs`, or a transfer still running
 * after `maxMs`, is cut off the same way. `release` (the caller's slots) runs once the iterator has stopped,
 * however the transfer ends. A failure after the status line has gone out can no longer be a problem
 * response: it is logged and errors the body, so the client sees a truncated transfer, never a clean end.
 */
export function streamResponse(
  body: StreamedBody,
  type: string,
  headers: Headers,
  { release = () => {}, limits = exportLimits() }: { release?: () => void; limits?: TransferLimits } = {},
): Response {
  const iterator = body.chunks[Symbol.asyncIterator]();
  const requestId = headers.get('X-Request-Id');
  const encoder = new TextEncoder();
  let ended = false;
  let stallTimer: NodeJS.Timeout | undefined;
  let wallClock: NodeJS.Timeout | undefined;
  /** Stops the iterator (ending its transaction) and gives the slots back, once. */
  const end = async () => {
    if (ended) return;
    ended = true;
    clearTimeout(stallTimer);
    clearTimeout(wallClock);
    try {
      await iterator.return?.();
    } catch {
      // It failed already, and that was reported where it happened.
    } finally {
      release();
    }
  };
  let controller: ReadableStreamDefaultController<Uint8Array>;
  const cutOff = (why: string) => {
    if (ended) return;
    log.warn({ requestId, ...limits }, why);
    controller.error(new Error(why));
    void end();
  };
  const awaitRead = () => {
    stallTimer = setTimeout(() => cutOff('download cut off: the client stopped reading'), limits.stallMs);
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        awaitRead();
      },
      async pull() {
        clearTimeout(stallTimer);
        wallClock ??= setTimeout(() => cutOff('download cut off: it ran longer than an export may'), limits.maxMs);
        try {
          const { value, done } = await iterator.next();
          if (ended) return;
          if (done) {
            controller.close();
            await end();
          } else {
            controller.enqueue(encoder.encode(value));
            awaitRead();
          }
        } catch (err) {
          if (ended) return;
          log.error({ requestId, err }, 'streamed response failed');
          controller.error(err);
          await end();
        }
      },
      cancel: end,
    },
    // No chunk is read ahead of the client: the first read of the body is what opens the database read.
    { highWaterMark: 0 },
  );
  headers.set('Content-Type', `${type}; charset=utf-8`);
  headers.set('Content-Disposition', `attachment; filename="${body.filename}"`);
  return new Response(stream, { status: 200, headers });
}

/**
 * The answer to a HEAD: the GET's status and headers without its body, which is cancelled unread (a streamed
 * body then never opens its cursor, and gives its slots back at once).
 */
export async function withoutBody(response: Response): Promise<Response> {
  await response.body?.cancel();
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}

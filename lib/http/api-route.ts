import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { QueryParams, readQuery, type QuerySchema } from '@/lib/query';
import { dataVersionForReads, type Principal } from '@/lib/access';
import { readJsonBody } from './body';
import { CSV_TYPE, JSON_TYPES, negotiateMediaType } from './negotiate';
import { AppError, badRequest, notFound } from '@/lib/shared/errors';
import { REQUEST_DEADLINE_MS } from '@/lib/platform/limits';
import { withinDeadline } from '@/lib/shared/deadline';
import { databaseIsRemote } from '@/db/health';
import { MALFORMED_PATH_HEADER } from './malformed-path';
import { API_SECURITY_HEADERS } from './security-headers';
import { claimExportSlot, claimReportSlot } from './report-slots';
import { ProblemError, problemOf } from './problem';
import { addressPolicy, applyRateLimit } from './rate-limit';
import { problemResponse } from './problem-response';
import { admit } from './caller';
import { FileBody, fileResponse, renderBody, StreamedBody, streamResponse, withoutBody } from './render';
import { log } from '@/lib/platform/log';
import { type CorsPolicy, isPreflight, preflightResponse, setCorsHeaders } from './cors';
import { varyOn } from './vary';
import { accountValidators, clientCopyIsCurrent, notModified, setValidators, type Validators } from './validators';
import { kickOutboxes } from './background';

/**
 * The one wrapper every API route goes through:
 * request id → authenticate → rate limit → negotiate → handler → render (or stream), and every error as
 * RFC 9457 problem+json. The endpoint table (lib/api/endpoints.ts) declares every endpoint and route files only
 * mount it; none writes its own try/catch or status codes.
 * Public endpoints (the health check) skip only the authentication: they spend the client address's budget.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface BaseContext<P, I> {
  request: Request;
  /** The query string read into the endpoint's typed input (undefined for an endpoint without parameters). */
  input: I;
  params: P;
  /** The media type negotiated from Accept, among what the endpoint offers. */
  type: string;
  readBody<T>(schema: z.ZodType<T>): Promise<T>;
}

/** A handler's view of the request: always with the principal of a valid API key. */
interface ApiContext<P, I = undefined> extends BaseContext<P, I> {
  principal: Principal;
}

/** A public endpoint's handler reads no key, so it has nobody to act for. */
interface PublicApiContext<P, I = undefined> extends BaseContext<P, I> {
  principal: null;
}

interface EndpointOptions<I> {
  /** The query parameters this endpoint takes (any letter case), read into its input; anything else is a 400. */
  query?: QuerySchema<I>;
  /** Headers on every response of this endpoint, errors included (the legacy feed's deprecation notice). */
  headers?: Record<string, string>;
  /** Columns of the rows when the response may also be rendered as text/csv (paged reports). */
  csvColumns?: readonly string[];
  /**
   * The media types this endpoint answers in, instead of JSON (and CSV with csvColumns); the first one when
   * Accept allows any. For endpoints whose handler returns a StreamedBody in `type` (the bulk export).
   */
  offers?: readonly string[];
  /** A report: a key may run only a few at once (lib/http/report-slots.ts). */
  report?: boolean;
  /** How long the request may take before it is answered 503 (lib/platform/limits.ts); REQUEST_DEADLINE_MS by default. */
  deadlineMs?: number;
  /**
   * Cache-Control of its successful answers instead of no-store; they then carry a strong ETag and answer
   * If-None-Match with 304 (lib/http/etag.ts).
   */
  cacheControl?: string;
  /** Readable by pages of any origin (Access-Control-Allow-Origin: *), not only CORS_ORIGINS' (lib/http/cors.ts). */
  anyOrigin?: boolean;
  /**
   * Its answers are made from the account's data alone: they carry validators made from the account's data
   * version (lib/http/validators.ts), and a request whose If-None-Match names the current ones is answered 304
   * without running the handler.
   */
  accountData?: boolean;
}

export interface KeyedEndpoint<P, I = undefined> extends EndpointOptions<I> {
  public?: false;
  handler(ctx: ApiContext<P, I>): Promise<unknown>;
  /** Accept the key in the `apiKey` query parameter too (only the deprecated legacy feed does). */
  keyInQuery?: boolean;
}

interface PublicEndpoint<P, I = undefined> extends EndpointOptions<I> {
  /**
   * No API key needed: keys are ignored entirely (never looked up, so never a 401 and no database), and every
   * request spends its client address's budget instead.
   */
  public: true;
  handler(ctx: PublicApiContext<P, I>): Promise<unknown>;
  keyInQuery?: never;
}

type Endpoint<P, I = undefined> = KeyedEndpoint<P, I> | PublicEndpoint<P, I>;

type RouteContext = { params: Promise<Record<string, string | string[]>> };
export type NextHandler = (request: Request, context: RouteContext) => Promise<Response>;

/**
 * Admits a request to its endpoint, spending one request, and returns the endpoint's handler bound to the
 * caller: the key's principal, or none for a public endpoint.
 */
async function admitTo<P, I>(
  endpoint: Endpoint<P, I>,
  request: Request,
  searchParams: URLSearchParams,
  headers: Headers,
): Promise<{ handle: (ctx: BaseContext<P, I>) => Promise<unknown>; keyId?: string; validatorsFor?: ValidatorsFor }> {
  if (endpoint.public) {
    // Keys are not even read (no database): the address's budget is what bounds a public endpoint.
    await applyRateLimit(addressPolicy(request), headers);
    return { handle: (ctx) => endpoint.handler({ ...ctx, principal: null }) };
  }
  const caller = await admit(request, searchParams, !!endpoint.keyInQuery, headers);
  if (!caller.principal) throw caller.rejection;
  const { principal, data } = caller;
  return {
    handle: (ctx) => endpoint.handler({ ...ctx, principal }),
    keyId: principal.keyId,
    validatorsFor: async (type) =>
      accountValidators(principal, await dataVersionForReads(principal.userId, data), request, type),
  };
}

type ValidatorsFor = (type: string) => Promise<Validators>;

/**
 * Runs `work` with a request id and response headers (the CORS ones already set, so errors carry them too);
 * anything it throws becomes a problem response, and so does no answer within the deadline when the
 * database is PostgreSQL (one that stopped answering).
 */
export async function respond(
  request: Request,
  work: (headers: Headers) => Promise<Response>,
  { deadlineMs = REQUEST_DEADLINE_MS, cors }: { deadlineMs?: number; cors: CorsPolicy },
): Promise<Response> {
  const requestId = randomUUID();
  const headers = new Headers({ 'X-Request-Id': requestId, ...API_SECURITY_HEADERS });
  setCorsHeaders(request, headers, cors);
  const late = () => {
    log.warn({ requestId, deadlineMs }, 'no answer within the deadline');
    return new AppError(
      'unavailable',
      `No answer within ${deadlineMs / 1000} s: the reporting database is unavailable or overloaded, or this ` +
        'request asks for more than one request may; retry shortly, or ask for less (a shorter range, fewer ' +
        'sites or Filter terms).',
    );
  };
  try {
    if (!databaseIsRemote()) return await work(headers);
    return await withinDeadline(work(headers), deadlineMs, late, (response) => void response.body?.cancel());
  } catch (err) {
    return problemResponse(err, request, headers, requestId);
  }
}

/** The query string as the endpoint's input, with every mistake in one 400 (unknown names included). */
function inputOf<I>(endpoint: Endpoint<unknown, I>, query: QueryParams): I {
  const alsoAccepted = endpoint.keyInQuery ? ['apiKey'] : [];
  if (endpoint.query) return readQuery(endpoint.query, query, { rejectUnknown: true, alsoAccepted });
  query.assertOnly(alsoAccepted);
  return undefined as I;
}

function serve<P, I>(endpoint: Endpoint<P, I>, request: Request, context: RouteContext): Promise<Response> {
  return respond(
    request,
    async (headers) => {
      for (const [name, value] of Object.entries(endpoint.headers ?? {})) headers.set(name, value);
      const { searchParams } = new URL(request.url);
      const { handle, keyId, validatorsFor } = await admitTo(endpoint, request, searchParams, headers);
      const query = QueryParams.from(searchParams);
      const offered = endpoint.offers ?? (endpoint.csvColumns ? [...JSON_TYPES, CSV_TYPE] : JSON_TYPES);
      // Every endpoint answers in the media type Accept picks (even JSON as text/plain), or 406.
      varyOn(headers, 'Accept');
      const type = negotiateMediaType(request.headers.get('accept'), offered);
      const input = inputOf(endpoint, query);
      const params = (await context.params) as P;
      const validators = endpoint.accountData && validatorsFor ? await validatorsFor(type) : null;
      if (validators && clientCopyIsCurrent(request, validators)) return notModified(headers, validators);
      const releaseReport = endpoint.report && keyId ? await claimReportSlot(keyId) : () => {};
      let streaming = false;
      try {
        const result = await handle({
          request,
          input,
          params,
          type,
          readBody: (schema) => readJsonBody(request, schema),
        });
        // A write may have queued mail (an invitation) or jobs (alerts after an import): done once this answer is out.
        if (request.method !== 'GET' && request.method !== 'HEAD') kickOutboxes();
        if (result instanceof FileBody) return fileResponse(result, type, headers);
        // Only a success carries them: an error keeps no-store.
        if (validators) setValidators(headers, validators);
        if (result instanceof StreamedBody) {
          // The export holds its slots until its last row is sent, the client goes, or it is cut off.
          const releaseExport = await claimExportSlot(result.accountId);
          const release = () => (releaseExport(), releaseReport());
          const response = streamResponse(result, type, headers, { release });
          streaming = true;
          return response;
        }
        const { csvColumns, cacheControl } = endpoint;
        return renderBody(result, type, headers, { request, csvColumns, cacheControl });
      } finally {
        if (!streaming) releaseReport();
      }
    },
    { deadlineMs: endpoint.deadlineMs, cors: corsPolicyOf(endpoint) },
  );
}

const corsPolicyOf = (endpoint: { anyOrigin?: boolean } | undefined): CorsPolicy =>
  endpoint?.anyOrigin ? 'any-origin' : 'allow-list';

/**
 * Answers that need no handler (404, 405, OPTIONS) still identify the caller and spend a request, so they
 * carry the rate-limit headers like every other response; all but a CORS preflight, which is the browser
 * asking before a request, and spends nothing.
 */
function answerWithout(
  reply: (request: Request, headers: Headers) => Response | ProblemError,
  cors: CorsPolicy = 'allow-list',
): NextHandler {
  return (request) =>
    respond(
      request,
      async (headers) => {
        if (!isPreflight(request)) await admit(request, new URL(request.url).searchParams, false, headers);
        const answer = reply(request, headers);
        if (answer instanceof ProblemError) throw answer;
        return answer;
      },
      { cors },
    );
}

type RouteHandlers = Record<Method | 'HEAD' | 'OPTIONS', NextHandler>;

/**
 * Declares a route file's endpoints; HEAD answers as GET does without the body, other methods answer 405 and
 * OPTIONS lists the allowed ones.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each method's endpoint has its own input type
export function defineRoutes<P>(endpoints: Partial<Record<Method, Endpoint<P, any>>>): RouteHandlers {
  const allowed = METHODS.filter((m) => endpoints[m]).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
  const allow = [...allowed, 'OPTIONS'].join(', ');
  // The route's GET decides: the OpenAPI document's 405s and preflights are for any origin too.
  const cors = corsPolicyOf(endpoints.GET);
  const notAllowed = answerWithout(
    (request) =>
      new ProblemError({
        status: 405,
        title: 'Method Not Allowed',
        detail: `${request.method} is not supported here; use ${allowed.join(', ')}.`,
        headers: { Allow: allow },
      }),
    cors,
  );
  const options = answerWithout((request, headers) => {
    headers.set('Allow', allow);
    return isPreflight(request) ? preflightResponse(headers, allow) : new Response(null, { status: 204, headers });
  }, cors);
  const handlers = METHODS.map((m): [string, NextHandler] => {
    const endpoint = endpoints[m];
    return [m, endpoint ? (req, ctx) => serve(endpoint, req, ctx) : notAllowed];
  });
  // HEAD is GET without the body, declared here rather than left to Next.js, which would run GET and leave
  // its body unread: an export's slots would then be held and never given back.
  const { GET } = endpoints;
  const head: NextHandler = GET ? async (req, ctx) => withoutBody(await serve(GET, req, ctx)) : notAllowed;
  return Object.fromEntries([...handlers, ['HEAD', head], ['OPTIONS', options]]) as RouteHandlers;
}

/**
 * For the catch-all under /api: any method on an unknown path is a 404 problem, not the HTML page; a path
 * that is not valid percent-encoded UTF-8 (flagged by our server, scripts/serve.mjs) is a 400.
 */
export const unknownApiPath: NextHandler = answerWithout((request) =>
  request.headers.has(MALFORMED_PATH_HEADER)
    ? problemOf(badRequest('path', 'is not valid percent-encoded UTF-8'))
    : problemOf(notFound(`There is no API endpoint at ${new URL(request.url).pathname}.`)),
);

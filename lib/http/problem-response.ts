import { AppError } from '@/lib/shared/errors';
import { ProblemError, problemOf, retryAfterHeader } from './problem';
import { REQUEST_STATEMENT_TIMEOUT_MS } from '@/lib/platform/limits';
import { isDatabaseUnavailable, isStatementTimeout } from './unavailable';
import { log } from '@/lib/platform/log';

/**
 * Any error as an RFC 9457 problem+json response. ProblemErrors say what the client did wrong; a database
 * outage is a 503 with Retry-After; anything else is logged (without query parameters) and becomes a 500
 * that quotes the request id.
 */
export function problemResponse(err: unknown, request: Request, headers: Headers, requestId: string): Response {
  let problem: ProblemError;
  if (err instanceof ProblemError) {
    problem = err;
  } else if (err instanceof AppError) {
    problem = problemOf(err);
  } else if (isStatementTimeout(err)) {
    log.warn({ requestId, err }, 'stopped at the statement timeout');
    problem = new ProblemError({
      status: 503,
      title: 'Service Unavailable',
      detail: `The query ran longer than the ${REQUEST_STATEMENT_TIMEOUT_MS / 1000} s a request may use and was stopped; ask for less (fewer or narrower Filter terms, fewer sites, a shorter range) or retry later.`,
      headers: retryAfterHeader(5),
    });
  } else if (isDatabaseUnavailable(err)) {
    log.error({ requestId, err }, 'database unavailable');
    problem = new ProblemError({
      status: 503,
      title: 'Service Unavailable',
      detail: 'The reporting database is unavailable or overloaded right now; retry shortly.',
      headers: retryAfterHeader(5),
    });
  } else {
    // Never expected: logged with the request id (never the query string, which may hold a key).
    // Nor the SQL parameters of a failed query, which may hold a key's hash: see describeError.
    log.error({ requestId, method: request.method, path: new URL(request.url).pathname, err }, 'request failed');
    problem = new ProblemError({
      status: 500,
      title: 'Internal Server Error',
      detail: `Something went wrong on our side; quote request id ${requestId} if you contact us.`,
    });
  }
  for (const [name, value] of Object.entries(problem.headers)) headers.set(name, value);
  headers.set('X-Request-Id', requestId);
  headers.set('Content-Type', 'application/problem+json; charset=utf-8');
  const body = {
    type: problem.type,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    instance: new URL(request.url).pathname,
    requestId,
    ...problem.extensions,
    ...(problem.errors ? { errors: problem.errors } : {}),
  };
  return new Response(JSON.stringify(body), { status: problem.status, headers });
}

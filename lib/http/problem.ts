/**
 * Errors as RFC 9457 problem details. The application's errors (lib/shared/errors.ts) carry a code; this is where
 * each code gets its HTTP status and title. ProblemError is for what only HTTP knows about (media types,
 * WWW-Authenticate, rate-limit headers); the route wrapper (lib/http/api-route.ts) is the only place that
 * turns either into a response.
 */
import { AppError, type ErrorCode, type FieldError } from '@/lib/shared/errors';

export interface ProblemInit {
  status: number;
  title: string;
  detail: string;
  type?: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** More members of the problem body (RFC 9457 extensions), e.g. a count of errors not listed. */
  extensions?: Record<string, unknown>;
}

export class ProblemError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly type: string;
  readonly errors?: FieldError[];
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;

  constructor(init: ProblemInit) {
    super(init.detail);
    this.name = 'ProblemError';
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.type = init.type ?? 'about:blank';
    this.errors = init.errors;
    this.headers = init.headers ?? {};
    this.extensions = init.extensions ?? {};
  }
}

/** The header that tells a refused client when to come back (429, 503). */
export const retryAfterHeader = (seconds: number) => ({ 'Retry-After': String(seconds) });

/** What every 401 of the API says about how to authenticate (RFC 9110 §11.6.1). */
export const WWW_AUTHENTICATE = { 'WWW-Authenticate': 'Bearer realm="reporting-api"' };

/** Each application error code as an HTTP status and the problem's title. */
export const STATUS_OF: Record<ErrorCode, { status: number; title: string }> = {
  invalid: { status: 400, title: 'Invalid request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not Found' },
  conflict: { status: 409, title: 'Conflict' },
  too_large: { status: 413, title: 'Content Too Large' },
  rate_limited: { status: 429, title: 'Too Many Requests' },
  unavailable: { status: 503, title: 'Service Unavailable' },
};

/** The problem an error of the application answers with. */
export function problemOf(err: AppError): ProblemError {
  const { status, title } = STATUS_OF[err.code];
  // Unavailable is not the caller's fault: say when to try again, as for a database outage.
  const headers =
    err.code === 'unavailable'
      ? retryAfterHeader(5)
      : err.code === 'unauthorized'
        ? WWW_AUTHENTICATE
        : err.retryAfterSeconds
          ? retryAfterHeader(err.retryAfterSeconds)
          : {};
  return new ProblemError({
    status,
    title,
    detail: err.detail,
    errors: err.errors,
    extensions: err.extensions,
    headers,
  });
}

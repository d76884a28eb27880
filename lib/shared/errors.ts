/**
 * The one error type of the application: services and the query grammar throw an AppError with a code and,
 * for bad input, the issues field by field. Each door turns it into its own answer: the API into RFC 9457
 * problem+json (lib/http/problem-response.ts), the dashboard into a message next to the filters.
 */
export type ErrorCode =
  'invalid' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_large' | 'unavailable' | 'rate_limited';

/** What is wrong with one input. */
export interface FieldError {
  /** The offending input by its API name: a query or path parameter or body field, e.g. "pageSize", "siteIds[1]". */
  parameter: string;
  /** For a line of an uploaded file: its 1-based line number (`parameter` is then the column). */
  line?: number;
  detail: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  readonly errors?: FieldError[];
  /** More facts for the caller, e.g. how many errors there were in all when only some are listed. */
  readonly extensions: Record<string, unknown>;
  /** For `rate_limited`: when to come back, in whole seconds (the API's Retry-After). */
  readonly retryAfterSeconds?: number;

  constructor(
    code: ErrorCode,
    detail: string,
    more: { errors?: FieldError[]; extensions?: Record<string, unknown>; retryAfterSeconds?: number } = {},
  ) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.detail = detail;
    this.errors = more.errors;
    this.extensions = more.extensions ?? {};
    this.retryAfterSeconds = more.retryAfterSeconds;
  }
}

/** Bad input, one or more fields at once; the detail names every one of them. */
export class ValidationError extends AppError {
  declare readonly errors: FieldError[];
  constructor(errors: FieldError[], detail = errors.map((e) => `${e.parameter}: ${e.detail}`).join('; ')) {
    super('invalid', detail, { errors });
    this.name = 'ValidationError';
  }
}

export const badRequest = (parameter: string, detail: string) => new ValidationError([{ parameter, detail }]);
export const forbidden = (detail: string) => new AppError('forbidden', detail);
export const notFound = (detail: string) => new AppError('not_found', detail);
export const conflict = (detail: string) => new AppError('conflict', detail);
/** Too many attempts: the API answers 429 with `Retry-After` (whole seconds, at least 1); a page shows the detail. */
export const rateLimited = (detail: string, retryAfterSeconds: number) =>
  new AppError('rate_limited', detail, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });

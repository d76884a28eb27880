/**
 * Errors as RFC 9457 problem details. Services and the query grammar throw these; the route wrapper
 * (lib/http/api-route.ts) is the only place that turns them into responses.
 */
export interface FieldError {
  /** The offending query parameter, path parameter or body field, e.g. "pageSize", "Filter", "siteIds[1]". */
  parameter: string;
  /** For a line of an uploaded file: its 1-based line number (`parameter` is then the column). */
  line?: number;
  detail: string;
}

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

/** 400 for one or more invalid inputs; the detail names every offending parameter. */
export class ValidationError extends ProblemError {
  constructor(errors: FieldError[]) {
    super({
      status: 400,
      title: 'Invalid request',
      detail: errors.map((e) => `${e.parameter}: ${e.detail}`).join('; '),
      errors,
    });
  }
}

export const badRequest = (parameter: string, detail: string) => new ValidationError([{ parameter, detail }]);

export const forbidden = (detail: string) => new ProblemError({ status: 403, title: 'Forbidden', detail });

export const notFound = (detail: string) => new ProblemError({ status: 404, title: 'Not Found', detail });

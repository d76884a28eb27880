import Negotiator from 'negotiator';
import { ProblemError } from './problem';

/** JSON is offered under three media types, whichever the client accepts; paged reports also as CSV. */
export const JSON_TYPES = ['application/json', 'text/json', 'text/plain'] as const;
export const CSV_TYPE = 'text/csv';
export const NDJSON_TYPE = 'application/x-ndjson';
export const PDF_TYPE = 'application/pdf';
export type ResponseType = (typeof JSON_TYPES)[number] | typeof CSV_TYPE;

// Offered with the charset we actually send, so that `Accept: application/json; charset=utf-8` (sent by
// many HTTP client libraries) matches; a media range naming another charset still does not.
const CHARSET = '; charset=utf-8';

/** Picks the response media type from `Accept` (q-values honoured; none or a wildcard means JSON), or 406. */
export function negotiateResponseType(accept: string | null, csv: boolean): ResponseType {
  return negotiateMediaType(accept, csv ? [...JSON_TYPES, CSV_TYPE] : JSON_TYPES) as ResponseType;
}

/**
 * Picks one of `available` from `Accept` (q-values honoured); no Accept, or a wildcard that allows several,
 * means the first. None acceptable is a 406 that names what is offered.
 */
export function negotiateMediaType(accept: string | null, available: readonly string[]): string {
  if (!accept || !accept.trim()) return available[0];
  const offered = available.map((type) => type + CHARSET);
  const chosen = new Negotiator({ headers: { accept } }).mediaType(offered);
  if (!chosen) {
    throw new ProblemError({
      status: 406,
      title: 'Not Acceptable',
      detail: `Accept: none of "${accept}" can be produced; this endpoint offers ${available.join(', ')}.`,
    });
  }
  return available[offered.indexOf(chosen)];
}

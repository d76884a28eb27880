/**
 * What one caller may cost the database (issue 9): written once, read by the database client, the API's
 * route wrapper and its documentation.
 */

/**
 * How long one statement of a request may run before PostgreSQL stops it (the API answers 503 with
 * Retry-After). Every report reads the rollups or an index and finishes well inside it on the 14.6 M-row
 * account; what does not (a metric Filter over all of an account's rows, say) is stopped here.
 */
export const REQUEST_STATEMENT_TIMEOUT_MS = 2_000;

/** Report requests one API key may have running at once; one more is answered 429 at once. */
export const MAX_CONCURRENT_REPORTS_PER_KEY = 2;

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

/**
 * How long the API waits for a request's answer (the database above all) before it answers 503 itself: a
 * database that stops answering (a network partition, a frozen host) gives no error, so without this a request
 * would wait for minutes. Just under the statement timeout: a query that is merely slow is answered the same.
 * PostgreSQL only: the embedded database runs in the server's process (lib/services/health.ts).
 */
export const REQUEST_DEADLINE_MS = 1_800;

/** The bulk ingestion's deadline instead: its body alone (16 MiB) may take a slow client longer to send. */
export const INGEST_REQUEST_DEADLINE_MS = 60_000;

/** Report requests one API key may have running at once; one more is answered 429 at once. */
export const MAX_CONCURRENT_REPORTS_PER_KEY = 2;

/** Connections in the server's PostgreSQL pool (db/client.ts). */
export const DATABASE_POOL_SIZE = 10;

/**
 * Exports running at once in one server instance, whoever asks: each holds a connection for as long as its
 * download lasts, so together they may take at most this share of the pool and reports always keep the rest.
 */
export const MAX_CONCURRENT_EXPORTS = 3;

/** Exports one account may have running at once, through its API keys and the dashboard together. */
export const MAX_CONCURRENT_EXPORTS_PER_ACCOUNT = 2;

/**
 * How long a download may wait for its client to read on (a client that stopped reading, or whose TCP window
 * is closed) before it is ended, with its transaction and its slots. EXPORT_STALL_SECONDS overrides it.
 */
export const EXPORT_STALL_MS = 30_000;

/**
 * The longest an export may run, from its first row to its last, whatever the client's pace: five minutes
 * streams a year of the largest account (7.3 M rows) several times over, and is what Vercel's plans allow a
 * function (the export routes' maxDuration). EXPORT_MAX_SECONDS overrides it.
 */
export const EXPORT_WALL_CLOCK_MS = 300_000;

/**
 * A session left idle inside a transaction this long is ended by PostgreSQL itself: the last line of defence
 * against a transaction that our own code failed to end (an export's is ended after EXPORT_STALL_MS).
 */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

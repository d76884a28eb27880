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
 * PostgreSQL only: the embedded database runs in the server's process (db/health.ts).
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
 * The longest an export may run, from its first row to its last, whatever the client's pace: ample for a
 * year of the largest account (7.3 M rows, ~30 s at full speed), and just under the 300 s that Vercel allows
 * a function (the export routes' maxDuration), so that the export ends itself, cleanly, before the platform
 * stops it. EXPORT_MAX_SECONDS overrides it.
 */
export const EXPORT_WALL_CLOCK_MS = 290_000;

/**
 * A session left idle inside a transaction this long is ended by PostgreSQL itself: the last line of defence
 * against a transaction that our own code failed to end (an export's is ended after EXPORT_STALL_MS).
 */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * How long a server's first request waits for migrations that another instance (or `npm run db:migrate`)
 * is applying, before it answers 503 with Retry-After instead (db/migrate.ts). Less than REQUEST_DEADLINE_MS,
 * so that the API's answer says why; the next request tries again.
 */
export const MIGRATION_LOCK_WAIT_MS = 1_500;

/** `npm run db:migrate` waits longer for another migrator (an index build can take minutes), but not forever. */
export const MIGRATE_COMMAND_LOCK_WAIT_MS = 10 * 60_000;

/**
 * A migrator's session idle this long (a serverless instance frozen mid-migration) is ended by PostgreSQL,
 * which releases the migration lock for the next instance.
 */
export const MIGRATION_SESSION_IDLE_TIMEOUT_MS = 60_000;

/**
 * Sign-in attempts allowed within the window per account from one client address, and per client address.
 * Never per account alone: then anyone could lock an owner out by failing on purpose from elsewhere. The
 * windows are fixed and aligned to the clock (lib/ratelimit), like the API's.
 */
export const SIGN_IN_LIMITS = { perAccountAndAddress: 10, perAddress: 30, windowMs: 15 * 60_000 };

/**
 * The second factor's back-off, per person and wherever the codes come from (lib/identity/second-factor-backoff.ts;
 * NIST SP 800-63B 5.2.2): the first `freeFailures` wrong codes in a row cost nothing; after them, a code from
 * the app is checked only once `firstWaitMs` has passed since the last wrong one, a wait that doubles with each
 * further wrong code up to `longestWaitMs` (1, 2, 4, 8, 16, 32 minutes, then an hour each). After `maxFailures`
 * in a row, codes from the app are refused until a recovery code is used or an admin resets the second factor.
 * Recovery codes are always checked (50 random bits: guessing them is hopeless), and a right code of either kind
 * starts the count again. The person is e-mailed at the `freeFailures`th wrong code in a row, then at every
 * `warnEvery`th up to `maxFailures`, then at every `maxFailures`th.
 */
export const SECOND_FACTOR_BACKOFF = {
  freeFailures: 5,
  firstWaitMs: 60_000,
  longestWaitMs: 60 * 60_000,
  maxFailures: 100,
  warnEvery: 10,
} as const;

import { EmbeddedDatabaseBusyError } from '@/db/embedded-lock';
import { AppError } from '@/lib/shared/errors';

// Connection-level failures (node and postgres.js codes) and PostgreSQL's "server going away / overloaded /
// statement timeout" SQLSTATEs: the request was fine, the database was not there for it.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
]);

/** True when an error (or any error it wraps) means the database is unreachable, not that the request is bad. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof EmbeddedDatabaseBusyError) return true;
    if (e instanceof AppError && e.code === 'unavailable') return true;
    // PGlite after close() (shutting down, or a failed start): no code, only this message.
    if (e instanceof Error && /PGlite is closed/i.test(e.message)) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

/** True when PostgreSQL stopped the statement at the request's statement_timeout (or it was cancelled). */
export function isStatementTimeout(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '57014') return true;
  }
  return false;
}

/**
 * drizzle's DrizzleQueryError, recognised by its shape: a bundled server may hold two copies of drizzle-orm,
 * and then `instanceof` fails and the message, parameters included, would be logged.
 */
export function isQueryError(e: unknown): e is Error & { query: string; params: unknown[] } {
  return (
    e instanceof Error &&
    typeof (e as { query?: unknown }).query === 'string' &&
    Array.isArray((e as { params?: unknown }).params)
  );
}

/**
 * A failed query's error without its parameters, for queries whose parameters are secrets' hashes (a session
 * token's, an API key's): Next.js logs whatever a page throws, message, fields and causes included. The
 * result keeps the database's code (how lib/http/unavailable.ts tells an outage) and its message.
 */
function withoutParameters(err: unknown): unknown {
  if (!isQueryError(err)) return err;
  const cause = err.cause as { message?: unknown; code?: unknown } | undefined;
  const reason = typeof cause?.message === 'string' ? cause.message : 'query failed';
  const stripped = new Error(`query failed: ${reason}`);
  return Object.assign(stripped, typeof cause?.code === 'string' ? { code: cause.code } : {});
}

/** Runs a query whose parameters must never reach a log; its failure is rethrown without them. */
export async function hidingParameters<T>(query: PromiseLike<T>): Promise<T> {
  try {
    return await query;
  } catch (err) {
    throw withoutParameters(err);
  }
}

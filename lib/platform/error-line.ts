import { isQueryError } from '@/lib/shared/sql-errors';

/**
 * An error as one log line (or a stack), without what must never reach a log: drizzle puts a failed query's
 * parameters into its error message, and those can be an API key's hash, a session token's hash or a
 * password hash. We log the query text (placeholders only) and the messages and codes of its causes.
 */
export function describeError(err: unknown, withStack = false): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (isQueryError(e)) {
      parts.push(`query failed: ${e.query.replace(/\s+/g, ' ').slice(0, 500)}`);
      continue;
    }
    if (e instanceof AggregateError) {
      parts.push(`${e.name}: ${e.errors.map((inner) => describeError(inner)).join(' | ')}`);
      break;
    }
    if (e instanceof Error) {
      const code = (e as { code?: unknown }).code;
      const head = `${e.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${e.message}`;
      const last = !(e as { cause?: unknown }).cause;
      parts.push(withStack && last && e.stack ? `${head}\n${e.stack.split('\n').slice(1).join('\n')}` : head);
      continue;
    }
    parts.push(String(e));
    break;
  }
  return parts.join(' ← caused by ');
}

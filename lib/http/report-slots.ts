import { MAX_CONCURRENT_REPORTS_PER_KEY } from '@/lib/limits';
import { ProblemError, retryAfterHeader } from './problem';

/**
 * How many report requests each API key has running in this process. A key that already has the maximum gets
 * a 429 at once instead of a third query on the database: with the per-minute limit and the statement
 * timeout, this bounds what one key can make the database do at any moment. Counted per server instance
 * (several instances each allow the maximum), as the database work it protects is too.
 */
const running = new Map<string, number>();

/** Takes one of the key's report slots; the returned function gives it back (any number of calls, once). */
export function claimReportSlot(keyId: string): () => void {
  const busy = running.get(keyId) ?? 0;
  if (busy >= MAX_CONCURRENT_REPORTS_PER_KEY) {
    throw new ProblemError({
      status: 429,
      title: 'Too Many Requests',
      detail: `This API key already has ${MAX_CONCURRENT_REPORTS_PER_KEY} report requests running; wait for one to finish.`,
      headers: retryAfterHeader(1),
    });
  }
  running.set(keyId, busy + 1);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    const left = (running.get(keyId) ?? 1) - 1;
    if (left > 0) running.set(keyId, left);
    else running.delete(keyId);
  };
}

/** The chunks of a streamed body, giving the slot back when the stream ends, fails or is cancelled. */
export async function* releasingAfter<T>(chunks: AsyncIterable<T>, release: () => void): AsyncGenerator<T> {
  try {
    yield* chunks;
  } finally {
    release();
  }
}

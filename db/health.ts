import { sql } from 'drizzle-orm';
import { databaseKind, getDb } from '@/db/client';
import { withinDeadline } from '@/lib/shared/deadline';

/** How long a page waits for the database to answer `select 1` before it shows the 503 page instead. */
const PROBE_DEADLINE_MS = 1_000;

let inFlight: Promise<boolean> | undefined;

/**
 * Whether the database is across a network, where it can stop answering: PostgreSQL. The embedded database
 * runs in this process; a burst on it queues rather than fails, so it gets no deadline and no probe.
 */
export const databaseIsRemote = (): boolean => databaseKind() === 'postgres';

/**
 * Whether PostgreSQL answers right now: proxy.ts asks before rendering a page, because once a page has begun
 * to render, Next.js can no longer answer it with a 503. Concurrent pages share one probe; nothing is cached,
 * so pages work again with the database's first answer.
 */
export function databaseAnswers(): Promise<boolean> {
  if (!databaseIsRemote()) return Promise.resolve(true);
  inFlight ??= probe().finally(() => (inFlight = undefined));
  return inFlight;
}

async function probe(): Promise<boolean> {
  try {
    const answered = getDb().then((db) => db.execute(sql`select 1`));
    await withinDeadline(
      answered,
      PROBE_DEADLINE_MS,
      () => new Error('no answer'),
      () => {},
    );
    return true;
  } catch {
    return false;
  }
}

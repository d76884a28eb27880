import { lt, or } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { jobs } from '@/db/schema-alerts';
import { KEEP_DAYS } from './queue';

/** Removes jobs done or given up more than KEEP_DAYS ago; returns how many. */
export async function pruneJobs(now: Date): Promise<number> {
  const before = new Date(now.getTime() - KEEP_DAYS * 86_400_000);
  const db = await getDb();
  const gone = await db
    .delete(jobs)
    .where(or(lt(jobs.doneAt, before), lt(jobs.failedAt, before)))
    .returning({ id: jobs.id });
  return gone.length;
}

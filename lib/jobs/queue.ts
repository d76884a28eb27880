import type { Tx } from '@/db/client';
import { jobs } from '@/db/schema-alerts';

/**
 * The work the runner knows (./handlers.ts):
 * - `alerts.evaluate`: an import changed an account's figures: look for revenue alerts on the days it wrote;
 * - `webhooks.data_updated`: the same import, told to the account's webhooks as `data.updated`;
 * - `alerts.scan`: the hourly look at every account (data that stopped, keys about to expire, recent revenue);
 * - `housekeeping`: hourly too, removes what is done and older than KEEP_DAYS (jobs, webhook deliveries).
 */
export type JobKind = 'alerts.evaluate' | 'webhooks.data_updated' | 'alerts.scan' | 'housekeeping';

/** How long done jobs and finished webhook deliveries are kept (Settings and the API list the deliveries). */
export const KEEP_DAYS = 30;

/**
 * Queues a job in the caller's transaction: done (./runner.ts) only if the action commits. With a `dedupeKey`,
 * a job of that key that was ever queued is not queued again.
 */
export async function queueJob(tx: Pick<Tx, 'insert'>, kind: JobKind, payload: object, dedupeKey?: string) {
  await tx
    .insert(jobs)
    .values({ kind, payload: payload as Record<string, unknown>, dedupeKey })
    .onConflictDoNothing({ target: jobs.dedupeKey });
}

/** The kinds an import queues, each with the days and sites written: apart, so that each is retried alone. */
const AFTER_IMPORT: JobKind[] = ['alerts.evaluate', 'webhooks.data_updated'];

/**
 * The import's jobs, as SQL over its staging table (which then holds only the rows that changed): per account,
 * each kind of AFTER_IMPORT with the days and sites written.
 */
export const queueRevenueWrittenSql = (staging: string) =>
  `insert into jobs (kind, payload)
   select k.kind, w.payload from (
     select jsonb_build_object('accountId', x.user_id, 'days', jsonb_agg(distinct s.day order by s.day),
              'siteIds', jsonb_agg(distinct s.site_id)) as payload
     from ${staging} s join sites x on x.id = s.site_id group by x.user_id) w
   cross join unnest('{${AFTER_IMPORT.join(',')}}'::text[]) as k(kind)`;

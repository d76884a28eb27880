import { and, isNull, sql } from 'drizzle-orm';
import { claimDue } from '@/db/claim';
import { getDb } from '@/db/client';
import { jobs } from '@/db/schema-alerts';
import { log } from '@/lib/platform/log';
import { backgroundWorker } from '@/lib/platform/worker';
import { backoffMs, type Backoff } from '@/lib/shared/backoff';
import { JOB_HANDLERS } from './handlers';
import { type JobKind, queueJob } from './queue';

/** Jobs claimed per transaction. */
const BATCH = 5;
/** A claimed job is due again after this if its runner died mid-job: then another runner takes it. */
const LEASE_MS = 10 * 60_000;
/** A failing job is tried again after ~30 s, then twice as long each time up to an hour; 8 attempts (~2 hours). */
const JOB_BACKOFF: Backoff = { firstMs: 30_000, maxMs: 3_600_000 };
const JOB_ATTEMPTS = 8;

interface RunReport {
  done: number;
  retrying: number;
  failed: number;
}

const claimDueJobs = async (now: Date) =>
  claimDue(await getDb(), { table: jobs, columns: jobs, open: and(isNull(jobs.doneAt), isNull(jobs.failedAt))! }, now, {
    batch: BATCH,
    leaseMs: LEASE_MS,
  });

/** Does every job that is due now; one that throws waits for its next attempt, and is given up after the last. */
export async function runDueJobs(options: { now?: () => Date } = {}): Promise<RunReport> {
  const now = options.now ?? (() => new Date());
  const report: RunReport = { done: 0, retrying: 0, failed: 0 };
  const db = await getDb();
  for (let batch = await claimDueJobs(now()); batch.length > 0; batch = await claimDueJobs(now())) {
    for (const job of batch) {
      const still = and(sql`${jobs.id} = ${job.id}`, isNull(jobs.doneAt));
      try {
        await JOB_HANDLERS[job.kind as JobKind](job.payload, { now: now() });
      } catch (err) {
        const givingUp = job.attempts >= JOB_ATTEMPTS;
        const error = err instanceof Error ? err.message : String(err);
        const at = now();
        await db
          .update(jobs)
          .set(
            givingUp
              ? { lastError: error, failedAt: at }
              : { lastError: error, nextAttemptAt: new Date(at.getTime() + backoffMs(job.attempts, JOB_BACKOFF)) },
          )
          .where(still);
        log.warn(
          { jobId: job.id, kind: job.kind, attempts: job.attempts, err },
          givingUp ? 'job gave up' : 'job failed',
        );
        report[givingUp ? 'failed' : 'retrying'] += 1;
        continue;
      }
      await db.update(jobs).set({ doneAt: now() }).where(still);
      report.done += 1;
    }
  }
  return report;
}

/** Queues this hour's scan of every account and its housekeeping (once each, whichever process asks first). */
async function queueHourlyScan(at: Date = new Date()): Promise<void> {
  const hour = at.toISOString().slice(0, 13);
  const db = await getDb();
  await queueJob(db, 'alerts.scan', { at: at.toISOString() }, `alerts.scan:${hour}`);
  await queueJob(db, 'housekeeping', { at: at.toISOString() }, `housekeeping:${hour}`);
}

/** What a scheduler runs (Vercel Cron, where no process outlives its requests): this hour's scan, then what is due. */
export async function runScheduledJobs(): Promise<RunReport> {
  await queueHourlyScan();
  return runDueJobs();
}

/** How often a long-running server looks for due jobs (and queues the hourly scan, once an hour). */
const RUNNER_INTERVAL_MS = 30_000;
const runner = backgroundWorker(
  'jobRunner',
  async () => {
    await queueHourlyScan();
    await runDueJobs();
  },
  RUNNER_INTERVAL_MS,
);

/**
 * Does what is due, soon: the doors call it after the transaction that queued a job has committed (with
 * runAfterResponse, so the answer does not wait).
 */
export const kickJobs = runner.kick;

/** Starts the server's runner loop (instrumentation.ts): the hourly scan, and jobs queued by other processes. */
export const startJobRunner = runner.start;

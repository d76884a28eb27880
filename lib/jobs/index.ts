/** Jobs: work for the machines, queued in the causing transaction and done after it with retries. */
export { queueRevenueWrittenSql } from './queue';
export { kickJobs, runDueJobs, runScheduledJobs, startJobRunner } from './runner';

import { getDb } from '@/db/client';
import { evaluateRevenue, type RevenueWritten, scanAccounts } from '@/lib/alerts';
import { todayUtc } from '@/lib/query';
import { pruneDeliveries, queueWebhookEvents } from '@/lib/webhooks';
import { type JobKind, KEEP_DAYS } from './queue';
import { pruneJobs } from './prune';

/** An import changed an account's figures: its webhooks hear `data.updated`, with the days and sites. */
async function dataUpdated(written: RevenueWritten) {
  const db = await getDb();
  const event = { days: written.days, siteIds: written.siteIds };
  return db.transaction((tx) =>
    queueWebhookEvents(tx, [{ accountId: written.accountId, type: 'data.updated', data: event }]),
  );
}

/** What each kind of job does with its payload; a handler that throws is retried (./runner.ts). */
export const JOB_HANDLERS: Record<JobKind, (payload: Record<string, unknown>, at: { now: Date }) => Promise<unknown>> =
  {
    'alerts.evaluate': (payload, { now }) => evaluateRevenue(payload as unknown as RevenueWritten, todayUtc(now)),
    'webhooks.data_updated': (payload) => dataUpdated(payload as unknown as RevenueWritten),
    'alerts.scan': (_payload, { now }) => scanAccounts(now),
    housekeeping: async (_payload, { now }) => ({
      jobs: await pruneJobs(now),
      deliveries: await pruneDeliveries(now, KEEP_DAYS),
    }),
  };

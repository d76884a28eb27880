import { evaluateRevenue, type RevenueWritten, scanAccounts } from '@/lib/alerts';
import { todayUtc } from '@/lib/query';
import type { JobKind } from './queue';

/** What each kind of job does with its payload; a handler that throws is retried (./runner.ts). */
export const JOB_HANDLERS: Record<JobKind, (payload: Record<string, unknown>, at: { now: Date }) => Promise<unknown>> =
  {
    'alerts.evaluate': (payload, { now }) => evaluateRevenue(payload as unknown as RevenueWritten, todayUtc(now)),
    'alerts.scan': (_payload, { now }) => scanAccounts(now),
  };

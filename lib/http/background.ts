import { after } from 'next/server';
import { kickJobs } from '@/lib/jobs';
import { kickSender } from '@/lib/mail';
import { kickWebhooks } from '@/lib/webhooks';
import { log } from '@/lib/platform/log';

const detached = new Set<Promise<void>>();

/** Work that must not delay the response; outside a Next.js request (tests, scripts) it runs detached. */
export function runAfterResponse(task: () => Promise<void>) {
  const guarded = () => task().catch((err) => log.error({ err }, 'background task failed'));
  try {
    after(guarded);
  } catch {
    const running = guarded().finally(() => detached.delete(running));
    detached.add(running);
  }
}

/** Waits for detached background work (e.g. lastUsedAt writes) started outside a Next.js request. */
export async function settleBackgroundTasks(): Promise<void> {
  while (detached.size > 0) await Promise.allSettled([...detached]);
}

/**
 * Starts the outboxes' workers once a write's answer is out: mail it queued (an invitation), jobs (alerts after
 * an import) and then the webhooks those queued, not seconds later. Each looks for what is due, so a kick after
 * a write that queued nothing costs a query.
 */
export const kickOutboxes = () =>
  runAfterResponse(async () => {
    await Promise.all([kickSender(), kickJobs().then(kickWebhooks)]);
    // Jobs may have queued mail (a webhook turned off e-mails its Owners).
    await kickSender();
  });

import { after } from 'next/server';
import { kickJobs } from '@/lib/jobs';
import { kickSender } from '@/lib/mail';
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
 * Starts the outboxes' workers once a write's answer is out: mail it queued (an invitation) and jobs (alerts after
 * an import), not 30 s later. Both look for what is due, so a kick after a write that queued nothing costs a query.
 */
export const kickOutboxes = () => runAfterResponse(async () => void (await Promise.all([kickSender(), kickJobs()])));

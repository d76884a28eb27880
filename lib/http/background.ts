import { after } from 'next/server';
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

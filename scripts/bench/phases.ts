import type { options } from './options';
import type { PhaseResult } from './report';

/** One pass over the cases: sequential (a fixed number of requests) or concurrent (for a while). */
export interface Phase {
  name: PhaseResult['name'];
  connections: number;
  amount: number | undefined;
  seconds: number;
  title: string;
}

/**
 * The run's phases on the server as deployed (each case sequentially, then at concurrency), and then those on a
 * second server without the report cache: what each answer costs to compute.
 */
export function phasesOf(settings: ReturnType<typeof options>, concurrency: number) {
  const sequential = (name: Phase['name'], title: string): Phase => ({
    name,
    connections: 1,
    amount: settings.requests,
    seconds: settings.sequentialCapSeconds,
    title: `${title}: 1 connection, ${settings.requests} requests per case after ${settings.warmups} warm-ups (at most ${settings.sequentialCapSeconds} s)`,
  });
  const PHASES: Phase[] = [
    sequential('sequential', 'Sequential'),
    {
      name: 'concurrent',
      connections: concurrency,
      amount: undefined,
      seconds: settings.durationSeconds,
      title: `Concurrent: ${concurrency} connections for ${settings.durationSeconds} s per case, after ${settings.warmups} warm-ups`,
    },
  ];
  const UNCACHED: Phase[] = [sequential('uncached', 'Without the report cache (REPORT_CACHE_MB=0), sequential')];
  return { PHASES, UNCACHED };
}

/**
 * The Upstash Redis client of the limits (./upstash.ts) and the slots (./upstash-slots.ts), and what both need to
 * fail open: a deadline on every call, and a warning at most once a minute while Upstash does not answer.
 */
import { Redis } from '@upstash/redis';
import { log } from '@/lib/platform/log';

export interface UpstashConnection {
  url: string;
  token: string;
  /** Longest a request waits for Upstash before it is served anyway (fail open). */
  timeoutMs?: number;
  warn?: (message: string) => void;
  now?: () => number;
}

const WARN_EVERY_MS = 60_000;
/** Extra time an HTTP call to Upstash may live after we stopped waiting for it, before it is aborted. */
const ABORT_AFTER_MS = 1_000;

const TIMED_OUT = Symbol('timed out');

/** The next turn of the event loop after pending I/O has been read (setImmediate), or the nearest thing. */
function afterIo(fn: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(fn);
  else setTimeout(fn, 0);
}

/**
 * Deadlines counted in time this process was able to listen, not in wall time. A plain timer started when
 * the call is made expires early in effect whenever our own process stalls: embedded PGlite answering a
 * burst runs for seconds in microtasks alone, during which requests to Upstash are not even sent and
 * answers sit unread, and timers are served before I/O once the loop turns again. That stall is not
 * Upstash being slow. So a shared ticker credits each waiting deadline with the time between its ticks,
 * but with at most two ticks' worth after a late one; and a deadline that runs out resolves only after the
 * loop has read whatever arrived meanwhile. A real hang still ends after ~ms of a responsive process.
 */
const TICK_MS = 20;
interface Waiting {
  left: number;
  last: number;
  done: () => void;
}
const waiting = new Set<Waiting>();
let ticker: ReturnType<typeof setInterval> | undefined;

function tick() {
  const t = performance.now();
  for (const w of waiting) {
    w.left -= Math.min(t - w.last, 2 * TICK_MS);
    w.last = t;
    if (w.left <= 0) {
      waiting.delete(w);
      afterIo(w.done);
    }
  }
  if (waiting.size === 0 && ticker) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

function listenFor(ms: number): { promise: Promise<typeof TIMED_OUT>; cancel(): void } {
  let entry: Waiting | undefined;
  const promise = new Promise<typeof TIMED_OUT>((resolve) => {
    entry = { left: ms, last: performance.now(), done: () => resolve(TIMED_OUT) };
    waiting.add(entry);
    if (!ticker) {
      ticker = setInterval(tick, TICK_MS);
      (ticker as { unref?: () => void }).unref?.(); // never what keeps a process alive
    }
  });
  return {
    promise,
    cancel: () => void (entry && waiting.delete(entry)),
  };
}

/** Aborts an HTTP call some time after the caller stopped waiting for it, so a hung socket is not kept. */
function abortSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  void listenFor(ms).promise.then(() => controller.abort(new Error(`Upstash did not answer within ${ms} ms`)));
  return controller.signal;
}

/** A Redis client that never retries, and aborts each call a while after its caller stopped waiting. */
export function upstashRedis(options: UpstashConnection): Redis {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Redis({
    url: options.url,
    token: options.token,
    // No retries with back-off (≈4 s by default); every HTTP call is aborted a while after we gave up on it.
    retry: false,
    signal: () => abortSignal(timeoutMs + ABORT_AFTER_MS),
    enableTelemetry: false,
  });
}

export const DEFAULT_TIMEOUT_MS = 1000;

/**
 * Upstash's answer to `work`, or why there is none: it failed, or `ms` of this process's listening time passed
 * first. The caller then counts in its own process instead (fails open).
 */
export async function answerOf<T>(work: Promise<T>, ms: number): Promise<{ answer: T } | { unavailable: string }> {
  const timer = listenFor(ms);
  try {
    const answer = await Promise.race([work, timer.promise]);
    return answer === TIMED_OUT ? { unavailable: `no answer within ${ms} ms` } : { answer };
  } catch (err) {
    return { unavailable: err instanceof Error ? err.message.slice(0, 200) : String(err) };
  } finally {
    timer.cancel();
  }
}

/** Says that Upstash is unavailable, why, and that `what` goes on in this process: at most once a minute. */
export function unavailableWarner(options: Pick<UpstashConnection, 'warn' | 'now'>, what: string) {
  const now = options.now ?? Date.now;
  const warn = options.warn ?? ((message: string) => log.warn(message));
  let lastWarning = -Infinity;
  return (reason: string) => {
    if (now() - lastWarning < WARN_EVERY_MS) return;
    lastWarning = now();
    warn(`[ratelimit] Upstash unavailable (${reason}); ${what} in this process until it answers again.`);
  };
}

import { log } from './log';

/**
 * A background worker of this process (the mail sender, the job runner, the webhook sender), written once: one
 * per process whichever bundle of Next.js loads it (its state lives on globalThis under `name`). `kick()` runs
 * it soon: a kick during a run makes that run look once more, and the promise settles when the run is over.
 * `start()` kicks it every `intervalMs` on a timer that never keeps the process alive (instrumentation.ts).
 */
export function backgroundWorker(name: string, run: () => Promise<unknown>, intervalMs: number) {
  const slot = globalThis as unknown as Record<
    string,
    { running?: Promise<void>; again: boolean; timer?: NodeJS.Timeout }
  >;
  const state = (slot[`__${name}`] ??= { again: false });
  const kick = (): Promise<void> => {
    state.again = true;
    state.running ??= (async () => {
      try {
        while (state.again) {
          state.again = false;
          await run();
        }
      } catch (err) {
        log.error({ err }, `${name} failed`);
      } finally {
        state.running = undefined;
      }
    })();
    return state.running;
  };
  const start = () => {
    if (state.timer) return;
    state.timer = setInterval(() => void kick(), intervalMs);
    state.timer.unref();
    void kick();
  };
  return { kick, start };
}

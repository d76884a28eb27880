/**
 * Slots: how many of an owner's requests may run at once (a key's reports, an account's exports). A claim takes
 * one while fewer than the maximum are taken, and gives back a function that returns it.
 */
export type Release = () => void;

export interface SlotStore {
  /** Takes one of `owner`'s `max` slots: the function that gives it back (any number of calls, once), or null. */
  claim(owner: string, max: number): Promise<Release | null>;
}

/** Gives back at most once, however often it is called. */
export function once(release: () => void): Release {
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    release();
  };
}

/** Slots counted in this process: exact for one instance, as JavaScript runs each claim without interleaving. */
export function createMemorySlots(): SlotStore & { claimNow(owner: string, max: number): Release | null } {
  const running = new Map<string, number>();
  const claimNow = (owner: string, max: number): Release | null => {
    const busy = running.get(owner) ?? 0;
    if (busy >= max) return null;
    running.set(owner, busy + 1);
    return once(() => {
      const left = (running.get(owner) ?? 1) - 1;
      if (left > 0) running.set(owner, left);
      else running.delete(owner);
    });
  };
  return { claimNow, claim: async (owner, max) => claimNow(owner, max) };
}

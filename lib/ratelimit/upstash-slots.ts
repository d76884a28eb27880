import { randomUUID } from 'node:crypto';
import { createMemorySlots, once, type SlotStore } from './slots';
import {
  answerOf,
  DEFAULT_TIMEOUT_MS,
  unavailableWarner,
  type UpstashConnection,
  upstashRedis,
} from './upstash-client';

/**
 * A slot outlives a claim that is never given back (an instance that stopped) by at most this long: longer than
 * any request that holds one may run, exports included (lib/platform/limits.ts).
 */
export const SLOT_LEASE_MS = 10 * 60_000;

/**
 * One claim, atomically: forget the owner's claims older than the lease, then add this one if fewer than the
 * maximum remain. KEYS[1] the owner's set; ARGV now, lease, max, claim id. 1 when taken, 0 when all are.
 */
const CLAIM = `
local key, now, lease, max, id = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - lease)
if redis.call('ZCARD', key) >= max then return 0 end
redis.call('ZADD', key, now, id)
redis.call('PEXPIRE', key, lease)
return 1`;

/**
 * Slots shared by every instance, in Upstash Redis: a sorted set of claims per owner, scored by when each was
 * taken. When Upstash errors or does not answer in time, the claim is counted in this process instead (as the
 * limits are), with a warning at most once a minute; a claim that reached Redis after we stopped waiting is
 * forgotten at the end of its lease.
 */
export function createUpstashSlots(options: UpstashConnection & { leaseMs?: number }): SlotStore {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? SLOT_LEASE_MS;
  const now = options.now ?? Date.now;
  const redis = upstashRedis(options);
  const fallback = createMemorySlots();
  const warnUnavailable = unavailableWarner(options, 'counting slots');
  return {
    async claim(owner, max) {
      const key = `portal:slots:${owner}`;
      const id = randomUUID();
      const taken = await answerOf(
        redis.eval<string[], number>(CLAIM, [key], [String(now()), String(leaseMs), String(max), id]),
        timeoutMs,
      );
      if ('unavailable' in taken) {
        warnUnavailable(taken.unavailable);
        return fallback.claimNow(owner, max);
      }
      if (taken.answer !== 1) return null;
      return once(() => {
        // Not waited for: the answer is already out. A release Upstash misses ends with the lease.
        void answerOf(redis.zrem(key, id), timeoutMs).then((r) => 'unavailable' in r && warnUnavailable(r.unavailable));
      });
    },
  };
}

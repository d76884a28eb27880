import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claimReportSlot } from '@/lib/http/report-slots';
import { setSlotStore } from '@/lib/ratelimit';
import type { Release } from '@/lib/ratelimit/slots';
import { createUpstashSlots, SLOT_LEASE_MS } from '@/lib/ratelimit/upstash-slots';
import { MAX_CONCURRENT_REPORTS_PER_KEY } from '@/lib/platform/limits';
import {
  deleteRedisKeys,
  redisAvailable,
  startUpstashEmulator,
  type UpstashEmulator,
} from '../support/upstash-emulator';
import { closedPortUrl, manualClock, REDIS_URL } from '../integration/ratelimit-helpers';

// Report and export slots shared by every instance through Upstash (the REST emulator over this machine's
// Redis): each `slots()` below is another server instance with its own client. Keys live under NS.
const available = await redisAvailable(REDIS_URL);
const NS = `slotstest:${randomUUID()}:`;
const owner = () => `report:${randomUUID()}`;

describe.skipIf(!available)(`Upstash slots${available ? '' : ` (skipped: no Redis at ${REDIS_URL})`}`, () => {
  let emulator: UpstashEmulator;
  const warnings: string[] = [];
  const slots = (extra: { now?: () => number; url?: string; timeoutMs?: number } = {}) =>
    createUpstashSlots({ url: emulator.url, token: emulator.token, warn: (m) => void warnings.push(m), ...extra });
  const taken = (releases: (Release | null)[]) => releases.filter((r) => r !== null).length;

  beforeAll(async () => {
    emulator = await startUpstashEmulator({ redisUrl: REDIS_URL, keyPrefix: NS });
  });
  afterEach(() => {
    emulator.setMode('normal');
    warnings.length = 0;
    setSlotStore(undefined);
  });
  afterAll(async () => {
    await emulator?.close();
    await deleteRedisKeys(NS, REDIS_URL);
  });

  it('counts across instances: two taken on one, the third refused on another, free again once given back', async () => {
    const [a, b] = [slots(), slots()];
    const key = owner();
    const held = [await a.claim(key, 2), await a.claim(key, 2)];
    expect(taken(held)).toBe(2);
    expect(await b.claim(key, 2)).toBeNull();
    expect(await b.claim(owner(), 2)).not.toBeNull(); // another owner has slots of its own
    held[0]!();
    held[0]!(); // giving back twice frees one slot, not two
    await expect.poll(() => b.claim(key, 2)).not.toBeNull();
    expect(await a.claim(key, 2)).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('takes exactly the maximum when 20 claims race from 4 instances', async () => {
    const key = owner();
    const instances = [slots(), slots(), slots(), slots()];
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => instances[i % 4].claim(key, 3)));
    expect(taken(claims)).toBe(3);
  });

  it('forgets a claim never given back (an instance that stopped) once its lease has passed', async () => {
    const clock = manualClock(Date.now());
    const key = owner();
    const stopped = slots({ now: clock.now });
    expect(taken([await stopped.claim(key, 1)])).toBe(1);
    expect(await slots({ now: clock.now }).claim(key, 1)).toBeNull();
    clock.advance(SLOT_LEASE_MS + 1);
    expect(await slots({ now: clock.now }).claim(key, 1)).not.toBeNull();
  });

  it('counts in this process when Upstash fails or hangs, still up to the maximum, and warns once', async () => {
    const key = owner();
    emulator.setMode('error');
    const failing = slots();
    const local = [await failing.claim(key, 2), await failing.claim(key, 2), await failing.claim(key, 2)];
    expect(taken(local)).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^\[ratelimit\] Upstash unavailable .*; counting slots in this process/);

    emulator.setMode('hang');
    const started = performance.now();
    expect(await slots({ timeoutMs: 200 }).claim(owner(), 2)).not.toBeNull();
    expect(performance.now() - started).toBeLessThan(1_000);

    const unreachable = slots({ url: await closedPortUrl() });
    expect(await unreachable.claim(owner(), 2)).not.toBeNull();
  });

  it("is what the API's report slots use when installed: a third report of a key is refused with 429", async () => {
    setSlotStore(slots());
    const keyId = randomUUID();
    const held = [];
    for (let i = 0; i < MAX_CONCURRENT_REPORTS_PER_KEY; i++) held.push(await claimReportSlot(keyId));
    setSlotStore(slots()); // another instance
    await expect(claimReportSlot(keyId)).rejects.toMatchObject({ status: 429 });
    held.forEach((release) => release());
    await expect.poll(async () => await claimReportSlot(keyId).then((r) => (r(), 'taken'))).toBe('taken');
  });
});

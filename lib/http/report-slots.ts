import {
  MAX_CONCURRENT_EXPORTS,
  MAX_CONCURRENT_EXPORTS_PER_ACCOUNT,
  MAX_CONCURRENT_REPORTS_PER_KEY,
} from '@/lib/platform/limits';
import { getSlotStore } from '@/lib/ratelimit';
import { createMemorySlots, type Release } from '@/lib/ratelimit/slots';
import { ProblemError, retryAfterHeader } from './problem';

/**
 * What may run at once, counted by owner, up to a maximum each: a caller that already has the maximum is
 * refused at once instead of putting one more query on the database. A key's reports and an account's exports
 * are counted by every instance together when Upstash is configured (lib/ratelimit/upstash-slots.ts), else per
 * instance; the exports of one server protect its own connections, so they are always its own.
 */
const tooMany = (detail: string, retryAfterSeconds: number) =>
  new ProblemError({ status: 429, title: 'Too Many Requests', detail, headers: retryAfterHeader(retryAfterSeconds) });

const refused = (release: Release | null, refusal: () => ProblemError): Release => {
  if (!release) throw refusal();
  return release;
};

/** Takes one of the key's report slots (429 when it has none left). */
export async function claimReportSlot(keyId: string): Promise<Release> {
  return refused(await getSlotStore().claim(`report:${keyId}`, MAX_CONCURRENT_REPORTS_PER_KEY), () =>
    tooMany(
      `This API key already has ${MAX_CONCURRENT_REPORTS_PER_KEY} report requests running; wait for one to finish.`,
      1,
    ),
  );
}

const thisServer = createMemorySlots();
const ALL_EXPORTS = 'exports';

/**
 * Takes an export slot of the account (429 when it has none left) and one of the server's (503 when every
 * one is taken): an export holds a connection for as long as its download lasts.
 */
export async function claimExportSlot(accountId: string): Promise<Release> {
  const releaseAccount = refused(
    await getSlotStore().claim(`export:${accountId}`, MAX_CONCURRENT_EXPORTS_PER_ACCOUNT),
    () =>
      tooMany(
        `This account already has ${MAX_CONCURRENT_EXPORTS_PER_ACCOUNT} exports running (its API keys and the ` +
          'dashboard together); wait for one to finish.',
        5,
      ),
  );
  const releaseServer = thisServer.claimNow(ALL_EXPORTS, MAX_CONCURRENT_EXPORTS);
  if (!releaseServer) {
    releaseAccount();
    throw new ProblemError({
      status: 503,
      title: 'Service Unavailable',
      detail:
        `The server is already running ${MAX_CONCURRENT_EXPORTS} exports, as many as it allows at once; ` +
        'try again shortly.',
      headers: retryAfterHeader(10),
    });
  }
  return () => {
    releaseServer();
    releaseAccount();
  };
}

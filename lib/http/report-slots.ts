import {
  MAX_CONCURRENT_EXPORTS,
  MAX_CONCURRENT_EXPORTS_PER_ACCOUNT,
  MAX_CONCURRENT_REPORTS_PER_KEY,
} from '@/lib/platform/limits';
import { ProblemError, retryAfterHeader } from './problem';

/**
 * What is running in this process, counted by owner, up to a maximum each: a caller that already has the
 * maximum is refused at once instead of putting one more query on the database. Counted per server instance
 * (several instances each allow the maximum), as the database connections they protect are too.
 */
class Slots {
  private readonly running = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly refusal: () => ProblemError,
  ) {}

  /** Takes one of `owner`'s slots; the returned function gives it back (any number of calls, once). */
  claim(owner: string): () => void {
    const busy = this.running.get(owner) ?? 0;
    if (busy >= this.max) throw this.refusal();
    this.running.set(owner, busy + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const left = (this.running.get(owner) ?? 1) - 1;
      if (left > 0) this.running.set(owner, left);
      else this.running.delete(owner);
    };
  }
}

const tooMany = (detail: string, retryAfterSeconds: number) =>
  new ProblemError({ status: 429, title: 'Too Many Requests', detail, headers: retryAfterHeader(retryAfterSeconds) });

const reportsByKey = new Slots(MAX_CONCURRENT_REPORTS_PER_KEY, () =>
  tooMany(
    `This API key already has ${MAX_CONCURRENT_REPORTS_PER_KEY} report requests running; wait for one to finish.`,
    1,
  ),
);

const exportsByAccount = new Slots(MAX_CONCURRENT_EXPORTS_PER_ACCOUNT, () =>
  tooMany(
    `This account already has ${MAX_CONCURRENT_EXPORTS_PER_ACCOUNT} exports running (its API keys and the ` +
      'dashboard together); wait for one to finish.',
    5,
  ),
);

const ALL_EXPORTS = 'all';
const exportsOfServer = new Slots(
  MAX_CONCURRENT_EXPORTS,
  () =>
    new ProblemError({
      status: 503,
      title: 'Service Unavailable',
      detail:
        `The server is already running ${MAX_CONCURRENT_EXPORTS} exports, as many as it allows at once; ` +
        'try again shortly.',
      headers: retryAfterHeader(10),
    }),
);

/** Takes one of the key's report slots (429 when it has none left). */
export function claimReportSlot(keyId: string): () => void {
  return reportsByKey.claim(keyId);
}

/**
 * Takes an export slot of the account (429 when it has none left) and one of the server's (503 when every
 * one is taken): an export holds a connection for as long as its download lasts.
 */
export function claimExportSlot(accountId: string): () => void {
  const releaseAccount = exportsByAccount.claim(accountId);
  try {
    const releaseServer = exportsOfServer.claim(ALL_EXPORTS);
    return () => {
      releaseServer();
      releaseAccount();
    };
  } catch (err) {
    releaseAccount();
    throw err;
  }
}

/**
 * How the second factor resists guessing (issue 39, point 6; NIST SP 800-63B 5.2.2, OWASP's MFA cheat sheet).
 * Wrong codes are counted per person in the database (`people.second_factor_failures`, and the time of the last
 * one), whichever step or address they come from: after a few, each further code from the app waits longer
 * (SECOND_FACTOR_BACKOFF), so that a person's password alone gives an attacker a few dozen guesses a day at most
 * and 100 until the person's next right code. Recovery codes are always checked, so that the back-off never keeps the real person out; the
 * person is e-mailed as wrong codes pile up. The count is kept in the caller's transaction: callers commit it
 * with a wrong code's answer. Each address is also throttled like password attempts.
 */
import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { people } from '@/db/schema';
import { SECOND_FACTOR_BACKOFF, SIGN_IN_LIMITS } from '@/lib/platform/limits';
import { getRateLimitStore, secondsUntilReset } from '@/lib/ratelimit';
import { AppError, rateLimited } from '@/lib/shared/errors';
import { queueWrongCodesWarning } from './second-factor-mail';

const { freeFailures, firstWaitMs, longestWaitMs, maxFailures, warnEvery } = SECOND_FACTOR_BACKOFF;

/** What the back-off reads of a person (their row locked by the caller). */
export interface CodeTaker {
  id: string;
  email: string;
  name: string;
  totpEnabledAt: Date | null;
  secondFactorFailures: number;
  secondFactorFailedAt: Date | null;
}

/** How long after the last of `failures` wrong codes in a row the next code from the app is checked. */
export function waitAfterFailures(failures: number): number {
  if (failures < freeFailures) return 0;
  return Math.min(firstWaitMs * 2 ** (failures - freeFailures), longestWaitMs);
}

/**
 * After `maxFailures` wrong codes in a row, codes from the app are refused for good (NIST's limit of 100); only
 * while two-factor sign-in is on, where a recovery code or an admin's reset ends it: a setup has neither.
 */
const appCodesLocked = (person: CodeTaker, failures = person.secondFactorFailures) =>
  Boolean(person.totpEnabledAt) && failures >= maxFailures;

const inWords = (ms: number) => {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

/**
 * Refuses a code from the app while the person's wait is not over (`rate_limited`, naming the wait and giving it
 * in `retryAfterSeconds`), and for good once they are locked (above). Nothing is counted: a code refused unread
 * is no guess. `recoveryCodesTaken`: the step also takes a recovery code, and the message says so.
 */
export function refuseWhileBackingOff(person: CodeTaker, recoveryCodesTaken: boolean, now = Date.now()): void {
  const failures = person.secondFactorFailures;
  if (appCodesLocked(person)) {
    throw new AppError(
      'rate_limited',
      `${failures} wrong codes in a row: codes from your app are no longer accepted. ` +
        'Sign in with a recovery code, or ask an administrator to reset your two-factor sign-in.',
    );
  }
  const waitedMs = now - (person.secondFactorFailedAt?.getTime() ?? 0);
  const leftMs = waitAfterFailures(failures) - waitedMs;
  if (leftMs <= 0) return;
  throw rateLimited(
    `Too many wrong codes. Try a code from your app again in ${inWords(leftMs)}` +
      (recoveryCodesTaken ? ', or use a recovery code now.' : '.'),
    leftMs / 1000,
  );
}

/** The person is e-mailed at these counts of wrong codes in a row: when the waits begin, then now and then. */
const warnsAt = (failures: number) =>
  failures === freeFailures ||
  (failures % warnEvery === 0 && (failures <= maxFailures || failures % maxFailures === 0));

/** Counts one wrong code (of either kind) against the person, in `tx`, and e-mails them at the counts above. */
export async function recordWrongCode(tx: Tx, person: CodeTaker): Promise<void> {
  const failures = person.secondFactorFailures + 1;
  await tx
    .update(people)
    .set({ secondFactorFailures: failures, secondFactorFailedAt: new Date() })
    .where(eq(people.id, person.id));
  if (warnsAt(failures)) {
    await queueWrongCodesWarning(tx, person, failures, appCodesLocked(person, failures));
  }
}

/** A right code (or a second factor reset or turned off): the count starts again. */
export async function clearWrongCodes(tx: Tx, personId: string): Promise<void> {
  await tx.update(people).set({ secondFactorFailures: 0, secondFactorFailedAt: null }).where(eq(people.id, personId));
}

/**
 * Every code attempt, of either kind, also counts against the client's address, as password attempts do: one
 * address cannot try codes for many people at once. Kept in the rate-limit store, outside any transaction.
 */
export async function throttleAddress(clientAddress: string | undefined): Promise<void> {
  const store = getRateLimitStore();
  const { perAddress, windowMs } = SIGN_IN_LIMITS;
  const check = await store.hit(`totp:addr:${clientAddress ?? 'unknown'}`, perAddress, windowMs);
  if (check.success) return;
  const seconds = secondsUntilReset(store, check);
  throw rateLimited(`Too many codes tried from here. Try again in ${inWords(seconds * 1000)}.`, seconds);
}

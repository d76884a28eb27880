import { and, eq, isNull, sql } from 'drizzle-orm';
import { claimDue } from '@/db/claim';
import { getDb } from '@/db/client';
import { mailOutbox } from '@/db/schema';
import { log } from '@/lib/platform/log';
import { backgroundWorker } from '@/lib/platform/worker';
import { backoffMs, type Backoff } from '@/lib/shared/backoff';
import { configuredTransport, describeFailure, type Transport } from './transport';

/** Messages claimed per transaction; each is sent within the lease, timeouts included (lib/mail/transport.ts). */
const BATCH = 5;
/** A claimed message is due again after this if its sender died mid-send: then another sender takes it. */
const LEASE_MS = 10 * 60_000;
/** The first retry waits about 30 s; each further one about twice as long as the one before, up to 6 hours. */
const MAIL_BACKOFF: Backoff = { firstMs: 30_000, maxMs: 6 * 3_600_000 };
/**
 * A 5xx reply ("mailbox unavailable", "message rejected") is a refusal for good, but some servers answer 5xx
 * for what passes (a full mailbox, a policy glitch): such a message gets 5 attempts in all (about 7 minutes),
 * then the sender gives up on it (failed_at) and it stays in the outbox for the operator to see.
 * Authentication failures are not counted: they are the operator's configuration, and fixing it sends all.
 */
export const PERMANENT_FAILURE_ATTEMPTS = 5;

/** How long to wait after the n-th failed attempt: exponential, with jitter so senders do not retry in step. */
export const retryDelayMs = (attempts: number, random?: () => number) => backoffMs(attempts, MAIL_BACKOFF, random);

interface SendReport {
  sent: number;
  retrying: number;
  gaveUp: number;
}

interface SendOptions {
  /** The SMTP transport of SMTP_URL by default; without one, nothing is sent. */
  transport?: Transport | null;
  /** The sender's clock (tests move it forward to reach a retry). */
  now?: () => Date;
}

/** Due messages, claimed so that no two senders (two server processes, a server and the CLI) take the same one. */
const claimDueMail = async (now: Date) =>
  claimDue(
    await getDb(),
    { table: mailOutbox, columns: mailOutbox, open: and(isNull(mailOutbox.sentAt), isNull(mailOutbox.failedAt))! },
    now,
    { batch: BATCH, leaseMs: LEASE_MS },
  );

/** A secret message's body (a reset link) is kept no longer than needed: cleared once sent or given up. */
const clearedIfSecret = {
  text: sql`case when ${mailOutbox.secret} then '' else ${mailOutbox.text} end`,
  html: sql`case when ${mailOutbox.secret} then '' else ${mailOutbox.html} end`,
};

/**
 * Sends every message that is due now; the ones that fail wait for their next attempt (retryDelayMs). Without
 * SMTP_URL it sends nothing: mail stays in the outbox (`npm run mail -- outbox` shows it).
 */
export async function sendDueMail(options: SendOptions = {}): Promise<SendReport> {
  const transport = options.transport === undefined ? configuredTransport() : options.transport;
  const now = options.now ?? (() => new Date());
  const report: SendReport = { sent: 0, retrying: 0, gaveUp: 0 };
  if (!transport) return report;
  const db = await getDb();
  for (let batch = await claimDueMail(now()); batch.length > 0; batch = await claimDueMail(now())) {
    for (const message of batch) {
      const still = and(eq(mailOutbox.id, message.id), isNull(mailOutbox.sentAt));
      try {
        await transport.send({
          to: message.recipient,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
      } catch (err) {
        const failure = describeFailure(err);
        const givingUp = failure.permanent && message.attempts >= PERMANENT_FAILURE_ATTEMPTS;
        const at = now();
        await db
          .update(mailOutbox)
          .set(
            givingUp
              ? { lastError: failure.message, failedAt: at, ...clearedIfSecret }
              : { lastError: failure.message, nextAttemptAt: new Date(at.getTime() + retryDelayMs(message.attempts)) },
          )
          .where(still);
        log.warn(
          { mailId: message.id, kind: message.kind, attempts: message.attempts, error: failure.message },
          givingUp ? 'mail refused for good: gave up' : 'mail not sent: will retry',
        );
        report[givingUp ? 'gaveUp' : 'retrying'] += 1;
        continue;
      }
      await db
        .update(mailOutbox)
        .set({ sentAt: now(), ...clearedIfSecret })
        .where(still);
      report.sent += 1;
    }
  }
  return report;
}

/** How often a long-running server looks for mail that is due (retries, mail queued by another process). */
const SENDER_INTERVAL_MS = 30_000;
const sender = backgroundWorker('mailSender', () => sendDueMail(), SENDER_INTERVAL_MS);

/**
 * Sends what is due, soon: the doors call it after the transaction that queued a message has committed (with
 * runAfterResponse, so the answer does not wait). On Vercel, where no process outlives its requests, this kick
 * is what sends mail (after() keeps the function alive until it settles); a message whose send failed is retried
 * by the next kick or by `npm run mail -- send` (a cron job may run it).
 */
export const kickSender = (): Promise<void> => (configuredTransport() ? sender.kick() : Promise.resolve());

/** Starts the server's sender loop (instrumentation.ts); it never keeps the process alive on its own. */
export function startMailSender(): void {
  if (configuredTransport()) sender.start();
}

import http from 'node:http';
import https from 'node:https';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { claimDue } from '@/db/claim';
import { type Db, getDb, type Tx } from '@/db/client';
import { webhookDeliveries, webhookEndpoints } from '@/db/schema-alerts';
import { ownersOf } from '@/lib/accounts';
import { recordEvent } from '@/lib/activity';
import { queueMail, renderMail } from '@/lib/mail';
import { log } from '@/lib/platform/log';
import { publicUrl } from '@/lib/platform/public-url';
import { backgroundWorker } from '@/lib/platform/worker';
import { publicOnlyLookup, refusedLiteral } from './address';

/**
 * When a failed delivery is tried again: the Standard Webhooks specification's schedule, 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h and 10 h after each failure (about 27 hours in all). After the last attempt fails the delivery
 * is given up and its endpoint turned off: its Owners are e-mailed and the activity log says so.
 */
const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const WEBHOOK_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** An attempt may take this long, connecting included; of the answer at most this much is kept. */
const TIMEOUT_MS = 10_000;
const KEPT_ANSWER_BYTES = 1024;
/** Deliveries claimed at once and sent side by side: one slow endpoint does not hold the others up. */
const BATCH = 50;
const LEASE_MS = 120_000;

interface Attempt {
  status: number | null;
  error: string | null;
  answer: string | null;
}

/** POSTs one signed body; never throws: a refused address, a timeout or a reset is the attempt's error. */
function post(url: string, body: string, headers: Record<string, string>): Promise<Attempt> {
  const literal = refusedLiteral(url);
  if (literal) return Promise.resolve({ status: null, error: `refused: ${literal}`, answer: null });
  return new Promise((resolve) => {
    const client = url.startsWith('https:') ? https : http;
    let settled = false;
    const done = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    const request = client.request(url, { method: 'POST', headers, lookup: publicOnlyLookup }, (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on('data', (chunk: Buffer) => {
        if (kept < KEPT_ANSWER_BYTES) chunks.push(chunk.subarray(0, KEPT_ANSWER_BYTES - kept));
        kept += chunk.length;
        // Enough is kept: the rest of a large answer is not read.
        if (kept >= KEPT_ANSWER_BYTES) response.destroy();
      });
      const finish = () => {
        const status = response.statusCode ?? null;
        const ok = status !== null && status >= 200 && status < 300;
        done({ status, error: ok ? null : `answered ${status}`, answer: Buffer.concat(chunks).toString('utf8') });
      };
      response.on('end', finish);
      response.on('close', finish);
      // A reset in the middle of the answer: its status is what counts, with what had come.
      response.on('error', finish);
    });
    const timer = setTimeout(() => {
      request.destroy();
      done({ status: null, error: `no answer within ${TIMEOUT_MS / 1000} s`, answer: null });
    }, TIMEOUT_MS);
    request.on('error', (err) => done({ status: null, error: err.message, answer: null }));
    request.end(body);
  });
}

/** The Standard Webhooks headers of one attempt: the same `webhook-id` on every attempt, a new timestamp. */
function signedHeaders(secret: string, id: string, body: string, at: Date): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'PublisherPortal-Webhooks/1.0',
    'webhook-id': `msg_${id}`,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(`msg_${id}`, at, body),
  };
}

const SYSTEM = { kind: 'system' as const, id: null, label: 'webhook sender', clientAddress: null };

/** Turns an endpoint off (once), tells its account's Owners by e-mail and the activity log. */
async function turnOff(tx: Tx, endpointId: string, reason: string) {
  const [off] = await tx
    .update(webhookEndpoints)
    .set({ disabledAt: new Date(), disabledReason: reason })
    .where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.disabledAt)))
    .returning();
  if (!off) return;
  await recordEvent(tx, SYSTEM, {
    kind: 'webhook.disabled',
    accountId: off.accountId,
    subjectId: off.id,
    details: { url: off.url, reason },
  });
  for (const owner of await ownersOf(tx, off.accountId)) {
    await queueMail(tx, {
      kind: 'webhook_disabled',
      to: owner.email,
      subject: 'A webhook of your Publisher Portal account was turned off',
      ...renderMail({
        greeting: `Hello ${owner.name ?? owner.email},`,
        paragraphs: [
          `We turned off the webhook to ${off.url}: ${reason}`,
          'Events are no longer sent to it. Once the endpoint answers again, add it again in Settings → Webhooks.',
        ],
        action: { label: 'Open Settings → Webhooks', url: publicUrl('/settings/webhooks') },
      }),
    });
  }
}

type Outcome = 'delivered' | 'retrying' | 'failed';
type SendReport = Record<Outcome, number>;
type Delivery = typeof webhookDeliveries.$inferSelect;

/** When a delivery that failed its n-th attempt is due again (the last delay for any later one). */
const retryAt = (now: Date, attempts: number) =>
  new Date(now.getTime() + RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1]);

/** One attempt of one delivery, and what it leaves: delivered, due again later, or given up (its endpoint off). */
async function deliver(db: Db, delivery: Delivery, now: () => Date): Promise<Outcome> {
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId));
  const still = and(eq(webhookDeliveries.id, delivery.id), isNull(webhookDeliveries.deliveredAt));
  if (!endpoint || endpoint.disabledAt) {
    await db.update(webhookDeliveries).set({ failedAt: now(), lastError: 'the webhook was turned off' }).where(still);
    return 'failed';
  }
  const body = JSON.stringify(delivery.payload);
  const at = now();
  // Signed with the wall clock's time, which the receiver compares with its own (`now` may be a test's).
  const attempt = await post(endpoint.url, body, signedHeaders(endpoint.secret, delivery.id, body, new Date()));
  const last = {
    lastAttemptAt: at,
    lastStatus: attempt.status,
    lastError: attempt.error,
    lastResponse: attempt.answer,
  };
  if (!attempt.error) {
    await db
      .update(webhookDeliveries)
      .set({ ...last, deliveredAt: now() })
      .where(still);
    return 'delivered';
  }
  if (delivery.attempts < WEBHOOK_ATTEMPTS) {
    await db
      .update(webhookDeliveries)
      .set({ ...last, nextAttemptAt: retryAt(now(), delivery.attempts) })
      .where(still);
    return 'retrying';
  }
  const reason = `every attempt to deliver an event for about a day failed (last: ${attempt.error}).`;
  await db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({ ...last, failedAt: now() })
      .where(still);
    await turnOff(tx, endpoint.id, reason);
  });
  log.warn({ deliveryId: delivery.id, endpointId: endpoint.id, error: attempt.error }, 'webhook turned off');
  return 'failed';
}

/**
 * Sends every delivery that is due now, side by side within a batch; a failed one waits for its next attempt,
 * and after the last its endpoint is turned off. Deliveries of an endpoint turned off meanwhile are given up.
 */
export async function sendDueWebhooks(options: { now?: () => Date } = {}): Promise<SendReport> {
  const now = options.now ?? (() => new Date());
  const report: SendReport = { delivered: 0, retrying: 0, failed: 0 };
  const db = await getDb();
  const outbox = {
    table: webhookDeliveries,
    columns: webhookDeliveries,
    open: sql`${webhookDeliveries.deliveredAt} is null and ${webhookDeliveries.failedAt} is null`,
  };
  const claim = () => claimDue(db, outbox, now(), { batch: BATCH, leaseMs: LEASE_MS });
  for (let batch = await claim(); batch.length > 0; batch = await claim()) {
    const outcomes = await Promise.all(
      batch.map((delivery) =>
        // One delivery that cannot even be tried (a broken row) must not stop the others: it waits its retry.
        deliver(db, delivery, now).catch(async (err): Promise<Outcome> => {
          log.error({ err, deliveryId: delivery.id }, 'webhook delivery failed');
          await db
            .update(webhookDeliveries)
            .set({ nextAttemptAt: retryAt(now(), delivery.attempts), lastError: 'internal error' })
            .where(eq(webhookDeliveries.id, delivery.id));
          return 'retrying';
        }),
      ),
    );
    for (const outcome of outcomes) report[outcome] += 1;
  }
  return report;
}

/** Removes deliveries delivered or given up more than `keepDays` ago (their webhooks' lists stop there). */
export async function pruneDeliveries(now: Date, keepDays: number): Promise<number> {
  const before = new Date(now.getTime() - keepDays * 86_400_000);
  const db = await getDb();
  const gone = await db
    .delete(webhookDeliveries)
    .where(or(lt(webhookDeliveries.deliveredAt, before), lt(webhookDeliveries.failedAt, before)))
    .returning({ id: webhookDeliveries.id });
  return gone.length;
}

/** How often a long-running server looks for deliveries that are due (retries, events of other processes). */
const SENDER_INTERVAL_MS = 5_000;
const sender = backgroundWorker('webhookSender', () => sendDueWebhooks(), SENDER_INTERVAL_MS);

/** Sends what is due, soon (after a write that queued deliveries: lib/http/background.ts). */
export const kickWebhooks = sender.kick;
/** Starts the server's sender loop (instrumentation.ts). */
export const startWebhookSender = sender.start;

import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '@/db/schema';
import { kickSender, PERMANENT_FAILURE_ATTEMPTS, queueMail, renderMail, sendDueMail } from '@/lib/mail';
import { retryDelayMs } from '@/lib/mail/sender';
import { readEnv, setEnv } from '@/lib/platform/env';
import { useTestDatabase } from '../support/db';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

const t = useTestDatabase();
let sink: SmtpSink;

const FROM = 'Portal Tests <portal-tests@example.com>';
const useSmtp = (url: string | undefined) =>
  setEnv(readEnv({ ...process.env, SMTP_URL: url, MAIL_FROM: FROM, PUBLIC_URL: 'https://portal.example.com' }));

beforeAll(async () => {
  sink = await startSmtpSink({ auth: { user: 'portal', pass: 'p@ss word' } });
  useSmtp(sink.url);
});
afterEach(() => sink.refuseWith(null));
afterAll(async () => {
  setEnv(undefined);
  await sink.stop();
});

const newAddress = () => `mail-${randomUUID().slice(0, 8)}@test.example`;

async function queue(to: string, options: { secret?: boolean; subject?: string } = {}) {
  const { text, html } = renderMail({
    greeting: 'Hello Ada,',
    paragraphs: ['Something happened on your account.'],
    action: { label: 'Open the portal', url: 'https://portal.example.com/reset-password/abc' },
    closing: ['If this was not you, ignore this message.'],
  });
  const id = await queueMail(t.db, {
    kind: 'test',
    to,
    subject: options.subject ?? 'A test message',
    text,
    html,
    secret: options.secret,
  });
  return id;
}

const row = async (id: string) => (await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0];

describe('the mail sender', () => {
  it('delivers both parts over SMTP (with AUTH) from MAIL_FROM, without remote images, and marks the row sent', async () => {
    const to = newAddress();
    const id = await queue(to);
    const report = await sendDueMail();
    expect(report.sent).toBeGreaterThanOrEqual(1);

    const [mail] = sink.to(to);
    expect(sink.to(to)).toHaveLength(1);
    expect(mail.from).toBe('portal-tests@example.com');
    expect(mail.subject).toBe('A test message');
    expect(mail.text).toContain('Something happened on your account.');
    expect(mail.links).toEqual(['https://portal.example.com/reset-password/abc']);
    expect(mail.html).toContain('href="https://portal.example.com/reset-password/abc"');
    expect(mail.html).not.toMatch(/<img[^>]+src=["']?https?:/i);

    const sent = await row(id);
    expect(sent.sentAt).toBeInstanceOf(Date);
    expect(sent.attempts).toBe(1);
    expect(sent.text).toContain('Something happened'); // not secret: kept
    // Sent once: another run finds nothing of it.
    await sendDueMail();
    expect(sink.to(to)).toHaveLength(1);
  });

  it('sends a message that became due within the same millisecond as the run', async () => {
    // The row's due time keeps microseconds, a clock milliseconds: read back, it is that millisecond's start.
    // Compared as is, the message was not yet due (42 in 150 queued-then-sent messages waited, on PostgreSQL).
    const to = newAddress();
    const id = await queue(to);
    const due = (await row(id)).nextAttemptAt;
    await sendDueMail({ now: () => due });
    expect(sink.to(to)).toHaveLength(1);
  });

  it('clears the body of a secret message once it is sent', async () => {
    const to = newAddress();
    const id = await queue(to, { secret: true });
    await sendDueMail();
    expect(sink.to(to)[0].links).toEqual(['https://portal.example.com/reset-password/abc']);
    const sent = await row(id);
    expect(sent.text).toBe('');
    expect(sent.html).toBe('');
  });

  it('sends nothing without SMTP_URL: mail waits in the outbox', async () => {
    useSmtp(undefined);
    try {
      const to = newAddress();
      const id = await queue(to);
      expect(await sendDueMail()).toEqual({ sent: 0, retrying: 0, gaveUp: 0 });
      await kickSender();
      const waiting = await row(id);
      expect(waiting.sentAt).toBeNull();
      expect(waiting.attempts).toBe(0);
      expect(sink.to(to)).toHaveLength(0);
    } finally {
      useSmtp(sink.url);
    }
    // Once configured, it goes out.
    await kickSender();
  });

  it('keeps mail through an outage, retrying later each time, and delivers it exactly once when the server is back', async () => {
    const to = newAddress();
    const id = await queue(to);
    // A second ahead: the row is due from the database's now(), in microseconds, which can still be later than
    // this millisecond (CI on PostgreSQL once found it not yet due).
    let clock = Date.now() + 1_000;
    const now = () => new Date(clock);

    // 1. The server is down: connection refused.
    await sink.stop();
    try {
      await sendDueMail({ now });
    } finally {
      await sink.start();
    }
    const first = await row(id);
    expect(first.sentAt).toBeNull();
    expect(first.attempts).toBe(1);
    expect(first.lastError).toMatch(/ECONN|ESOCKET/);
    const firstWait = first.nextAttemptAt.getTime() - clock;
    expect(firstWait).toBeGreaterThan(0);

    // Not due yet: nothing is tried before its time.
    await sendDueMail({ now });
    expect((await row(id)).attempts).toBe(1);

    // 2. Back, but answering "try later" (421, then 451): still kept, waiting longer each time.
    let previousWait = firstWait;
    for (const [attempt, code] of [
      [2, 421],
      [3, 451],
    ] as const) {
      sink.refuseWith(code);
      clock = (await row(id)).nextAttemptAt.getTime();
      await sendDueMail({ now });
      const retried = await row(id);
      expect(retried.sentAt).toBeNull();
      expect(retried.attempts).toBe(attempt);
      expect(retried.lastError).toMatch(new RegExp(`^${code}: `));
      const wait = retried.nextAttemptAt.getTime() - clock;
      expect(wait).toBeGreaterThan(previousWait);
      previousWait = wait;
    }
    expect(sink.to(to)).toHaveLength(0);

    // 3. The server accepts again: delivered once, whatever runs next.
    sink.refuseWith(null);
    clock = (await row(id)).nextAttemptAt.getTime();
    await sendDueMail({ now });
    await sendDueMail({ now });
    expect(sink.to(to)).toHaveLength(1);
    const delivered = await row(id);
    expect(delivered.sentAt).toBeInstanceOf(Date);
    expect(delivered.attempts).toBe(4);
  });

  it(`gives up on a message the server refuses for good (5xx) after ${PERMANENT_FAILURE_ATTEMPTS} attempts`, async () => {
    const to = newAddress();
    const id = await queue(to, { secret: true });
    sink.refuseWith(550);
    let clock = Date.now() + 1_000; // a second ahead, as above
    const now = () => new Date(clock);
    for (let attempt = 1; attempt <= PERMANENT_FAILURE_ATTEMPTS; attempt++) {
      await sendDueMail({ now });
      const tried = await row(id);
      expect(tried.attempts).toBe(attempt);
      expect(tried.lastError).toMatch(/^550: /);
      expect(tried.failedAt === null).toBe(attempt < PERMANENT_FAILURE_ATTEMPTS);
      clock = Math.max(clock, tried.nextAttemptAt.getTime()) + 1;
    }
    const failed = await row(id);
    expect(failed.sentAt).toBeNull();
    expect(failed.text).toBe(''); // it held a secret link, and will never be sent
    // Given up: not tried again, even once the server accepts.
    sink.refuseWith(null);
    clock += 24 * 3_600_000;
    await sendDueMail({ now });
    expect((await row(id)).attempts).toBe(PERMANENT_FAILURE_ATTEMPTS);
    expect(sink.to(to)).toHaveLength(0);
  });

  it('sends each message once when two senders run at the same time', async () => {
    const addresses = Array.from({ length: 12 }, newAddress);
    for (const to of addresses) await queue(to);
    await Promise.all([sendDueMail(), sendDueMail(), kickSender()]);
    for (const to of addresses) expect(sink.to(to)).toHaveLength(1);
  });
});

describe('retry delays', () => {
  it('grow exponentially with jitter, each at least the previous longest, up to a cap', () => {
    const low = () => 0;
    const high = () => 0.999_999;
    // Below the cap (30 s · 2⁹ ≈ 4.3 h; the next would pass 6 h).
    for (let attempts = 1; attempts < 10; attempts++) {
      expect(retryDelayMs(attempts + 1, low)).toBeGreaterThanOrEqual(retryDelayMs(attempts, high));
    }
    expect(retryDelayMs(1, low)).toBe(15_000);
    expect(retryDelayMs(100, high)).toBeLessThanOrEqual(6 * 3_600_000);
  });
});

import nodemailer from 'nodemailer';
import { env } from '@/lib/platform/env';

/** One message as the SMTP server receives it. */
interface Envelope {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where messages go: SMTP in the app, anything with the same shape in a test that wants a fault. */
export interface Transport {
  send(message: Envelope): Promise<void>;
}

/** Why a send failed, as the outbox keeps it: the SMTP reply code when there was one. */
export interface SendFailure {
  /** The server refused the message for good (a 5xx reply), as opposed to an outage or a 4xx "try later". */
  permanent: boolean;
  message: string;
}

// How long to wait for a mail server before counting the attempt as failed: a sender must not hang on one.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

let cached: { url: string; transport: Transport } | undefined;

/**
 * The SMTP transport of SMTP_URL (smtp:// with STARTTLS when the server offers it, smtps:// for TLS from the
 * first byte; user and password in the URL), sending from MAIL_FROM; null when SMTP_URL is unset, and mail
 * then waits in the outbox. One connection per message: the sender sends a few at a time, rarely.
 */
export function configuredTransport(): Transport | null {
  const { SMTP_URL, MAIL_FROM } = env();
  if (!SMTP_URL) return null;
  if (cached?.url !== SMTP_URL) {
    const mailer = nodemailer.createTransport({ url: SMTP_URL, ...TIMEOUTS }, { from: MAIL_FROM });
    cached = {
      url: SMTP_URL,
      transport: {
        async send(message) {
          await mailer.sendMail(message);
        },
      },
    };
  }
  return cached.transport;
}

/** What a failed send tells the outbox; never the SMTP URL (it holds the password). */
export function describeFailure(err: unknown): SendFailure {
  const { responseCode, code, message } = (err ?? {}) as { responseCode?: unknown; code?: unknown; message?: unknown };
  const reply = typeof responseCode === 'number' ? responseCode : null;
  const text = typeof message === 'string' ? message : String(err);
  const label = reply ?? (typeof code === 'string' ? code : 'error');
  return {
    // A refused login (EAUTH, 535) is the operator's configuration, not this message's fault: retried.
    permanent: reply !== null && reply >= 500 && reply < 600 && code !== 'EAUTH',
    message: `${label}: ${text}`.replace(/\s+/g, ' ').slice(0, 500),
  };
}

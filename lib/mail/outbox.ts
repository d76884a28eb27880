import type { Tx } from '@/db/client';
import { mailOutbox } from '@/db/schema';

/** One message, as the domain that sends it words it; lib/mail/layout.ts renders the text and HTML parts. */
export interface OutgoingMail {
  /**
   * What kind of message, for the outbox listing: `invitation`, `password_reset`, `password_changed`,
   * `second_factor_failures`…
   */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Holds a secret link (a password reset): never shown on screen, its body cleared once sent. */
  secret?: boolean;
}

/**
 * Queues a message in the caller's transaction: it is sent (lib/mail/sender.ts) only if the action that
 * caused it commits, and a mail server that is away delays it without losing it. Returns the message's id.
 */
export async function queueMail(tx: Tx, mail: OutgoingMail): Promise<string> {
  const [row] = await tx
    .insert(mailOutbox)
    .values({
      kind: mail.kind,
      recipient: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      secret: mail.secret ?? false,
    })
    .returning({ id: mailOutbox.id });
  return row.id;
}

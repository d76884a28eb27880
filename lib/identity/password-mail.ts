import type { Tx } from '@/db/client';
import { queueMail, renderMail } from '@/lib/mail';
import { publicUrl } from '@/lib/platform/public-url';

/** Who a password message goes to. */
export interface Recipient {
  email: string;
  name: string;
}

export const PORTAL = 'Publisher Portal';

/** Now, as the account's mails name a moment: to the minute, UTC. */
export const mailTimeNow = () => `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The reset link, in the caller's transaction: a secret message (its body is cleared once sent, and no page
 * shows it). `byAdmin` words it for a link an administrator sent.
 */
export async function queueResetLink(tx: Tx, to: Recipient, token: string, byAdmin = false): Promise<void> {
  const { text, html } = resetLinkMail(to, token, byAdmin);
  await queueMail(tx, {
    kind: 'password_reset',
    to: to.email,
    subject: `Reset your ${PORTAL} password`,
    text,
    html,
    secret: true,
  });
}

/** The message itself, also rendered when no account exists, so that both answers cost the same work. */
export function resetLinkMail(to: Recipient, token: string, byAdmin = false) {
  return renderMail({
    greeting: `Hello ${to.name},`,
    paragraphs: [
      byAdmin
        ? `An administrator of the ${PORTAL} sent you a link to choose a new password for ${to.email}.`
        : `Someone, hopefully you, asked to reset the password of your ${PORTAL} account ${to.email}.`,
    ],
    action: { label: 'Choose a new password', url: publicUrl(`/reset-password/${token}`) },
    closing: [
      'The link works once, within 60 minutes. Choosing a new password signs you out everywhere.',
      'If you did not ask for this, ignore this message: your password stays as it is.',
    ],
  });
}

/** "Your password was changed", after a change or a reset: if it was not the owner, they learn it at once. */
export async function queuePasswordChangedNotice(tx: Tx, to: Recipient, how: 'changed' | 'reset'): Promise<void> {
  const when = mailTimeNow();
  const { text, html } = renderMail({
    greeting: `Hello ${to.name},`,
    paragraphs: [
      how === 'changed'
        ? `The password of your ${PORTAL} account ${to.email} was changed at ${when}. Your other sessions were signed out.`
        : `The password of your ${PORTAL} account ${to.email} was reset at ${when}. Every session was signed out.`,
      'If this was you, there is nothing more to do.',
    ],
    action: { label: 'Not you? Reset your password', url: publicUrl('/forgot-password') },
    closing: ['Then tell your administrator, who can see the activity of the account.'],
  });
  await queueMail(tx, {
    kind: 'password_changed',
    to: to.email,
    subject: `Your ${PORTAL} password was ${how}`,
    text,
    html,
  });
}

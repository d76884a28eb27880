import type { Tx } from '@/db/client';
import { queueMail, renderMail } from '@/lib/mail';
import { publicUrl } from '@/lib/platform/public-url';
import { mailTimeNow, PORTAL, type Recipient } from './password-mail';

/**
 * "Wrong sign-in codes were entered for your account", in the caller's transaction (the one that counts the
 * wrong code). Entering a code needs the password first: if it was not the person, their password is known,
 * and the message says to change it. `locked`: codes from the app are no longer accepted.
 */
export async function queueWrongCodesWarning(tx: Tx, to: Recipient, failures: number, locked: boolean): Promise<void> {
  const when = mailTimeNow();
  const { text, html } = renderMail({
    greeting: `Hello ${to.name},`,
    paragraphs: [
      `${failures} wrong two-factor codes in a row were entered for your ${PORTAL} account ${to.email}, the last at ${when}.`,
      'A code is asked for only after the right password. If this was not you, someone knows your password: ' +
        'choose a new one now, which also signs out every session.',
      locked
        ? 'Codes from your authenticator app are no longer accepted: sign in with one of your recovery codes, ' +
          'or ask an administrator to reset your two-factor sign-in.'
        : 'Meanwhile each further code from your app waits longer before it is checked; your recovery codes ' +
          'always work at once.',
    ],
    action: { label: 'Choose a new password', url: publicUrl('/forgot-password') },
    closing: ['If it was you, there is nothing more to do. Your administrator can see the activity of the account.'],
  });
  await queueMail(tx, {
    kind: 'second_factor_failures',
    to: to.email,
    subject: `Wrong sign-in codes for your ${PORTAL} account`,
    text,
    html,
  });
}

import { listOutbox, type OutboxEntry, sendDueMail } from '@/lib/mail';
import { env } from '@/lib/platform/env';
import { type Command, CommandError, UsageError, parseCommandArgs } from '../cli-kit';
import { withDatabase } from '../open-database';

const when = (date: Date | null) => (date ? `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC` : '');

function describe(entry: OutboxEntry): string {
  const status =
    entry.status === 'sent'
      ? `sent ${when(entry.sentAt)}`
      : entry.status === 'failed'
        ? 'refused by the mail server: given up'
        : entry.attempts > 0
          ? `pending, next attempt ${when(entry.nextAttemptAt)}`
          : 'pending';
  const lines = [
    `To:       ${entry.to}`,
    `Subject:  ${entry.subject}`,
    `Kind:     ${entry.kind}    queued ${when(entry.createdAt)}`,
    `Status:   ${status}    attempts ${entry.attempts}`,
  ];
  if (entry.lastError) lines.push(`Error:    ${entry.lastError}`);
  const body = entry.text || '(cleared once sent: it held a secret link)';
  lines.push('', ...body.split('\n').map((line) => `    ${line}`));
  return lines.join('\n');
}

export const mailCommand: Command = {
  summary: 'Show the e-mail outbox, or send the mail that is due',
  help: `Usage: npm run mail -- outbox [--recent <n>]
       npm run mail -- send

outbox  Prints every message still to send (oldest first), then the last <n> sent or given up (default 10):
        recipient, subject, status, attempts and the plain-text part with its links. Without SMTP_URL mail
        stays in the outbox: this is how an operator reads an invitation or reset link on a new setup. It
        prints secret links (password resets) to this terminal, so run it only on your own machine.
send    Sends every message that is due now through SMTP_URL, as the server's sender does; on Vercel a
        cron job may run it to retry mail that failed. Needs SMTP_URL.

Acts on DATABASE_URL, or on the embedded database in PGLITE_DIR (stop a running server first).

Options:
  --recent <n>  how many sent messages to show (outbox)
  -h, --help    show this help`,

  async run(args) {
    const { values, positionals } = parseCommandArgs(args, { recent: { type: 'string' } }, true);
    const [action, ...rest] = positionals;
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    if (action === 'outbox') {
      const recent = values.recent === undefined ? 10 : Number(values.recent);
      if (!Number.isInteger(recent) || recent < 0) throw new UsageError('--recent must be a whole number');
      const { pending, done } = await withDatabase(() => listOutbox(recent), { seedIfEmpty: false });
      console.log(`${pending.length} message${pending.length === 1 ? '' : 's'} to send`);
      for (const entry of pending) console.log(`\n${describe(entry)}`);
      if (done.length > 0) console.log(`\n\nRecently sent or given up (${done.length}, newest first)`);
      for (const entry of done) console.log(`\n${describe(entry)}`);
      return;
    }
    if (action === 'send') {
      if (!env().SMTP_URL) throw new CommandError('SMTP_URL is not set: mail stays in the outbox (see "outbox")');
      const report = await withDatabase(() => sendDueMail(), { seedIfEmpty: false });
      console.log(`Sent ${report.sent}; ${report.retrying} to retry later; ${report.gaveUp} refused for good.`);
      return;
    }
    throw new UsageError(action ? `unknown action "${action}"` : 'say "outbox" or "send"');
  },
};

import fs from 'node:fs';
import { COMMAND_LINE } from '@/lib/access';
import { closeMonth, parsePaymentsCsv, recordPayments, type PaymentEntry } from '@/lib/payments';
import { todayUtc } from '@/lib/query';
import { AppError } from '@/lib/shared/errors';
import { dollars } from '@/lib/shared/money';
import { type Command, CommandError, UsageError, parseCommandArgs } from '../cli-kit';
import { withDatabase } from '../open-database';

/** A refusal the operator can act on: every numbered line of a payments file, or the one reason. */
function refusal(err: unknown): never {
  if (!(err instanceof AppError) || !['invalid', 'forbidden', 'conflict', 'not_found'].includes(err.code)) throw err;
  const lines = (err.errors ?? []).map((e) => `  ${e.line ? `line ${e.line}, ` : ''}${e.parameter}: ${e.detail}`);
  throw new CommandError([err.detail, ...(err.errors && err.errors.length > 1 ? lines : [])].join('\n'));
}

export const statementsCommand: Command = {
  summary: 'Close a month (finalize every account’s statements) and record payments',
  help: `Usage: npm run statements -- finalize --month <YYYY-MM>
       npm run statements -- pay --account <id|e-mail> --month <YYYY-MM> --amount <dollars> --reference <text> [--paid-at <YYYY-MM-DD>]
       npm run statements -- payments <file.csv>

finalize  Closes the month for every publisher account, and any earlier month an account has not closed yet:
          its statements are written from one snapshot of the revenue and never change after; a later change
          to those months comes as an adjustment on the next open statement. Running it again changes nothing.
pay       Records the payment of one finalized statement: the amount must be its whole amount due, to the cent.
payments  Records the payments of a CSV file with the header account,month,amount,paid_at,reference; a file
          with any line that does not match a finalized, unpaid statement is refused whole, every such line listed.

The payout threshold (PAYOUT_THRESHOLD_USD, default 100) and terms (PAYOUT_TERMS_DAYS, default 30) apply at
closing a month. Acts on DATABASE_URL, or on the embedded database in PGLITE_DIR (stop a running server first).

Options:
  --month <YYYY-MM>      the calendar month (UTC)
  --account <id|e-mail>  the publisher account (pay)
  --amount <dollars>     e.g. 1234.56 (pay)
  --reference <text>     the payment's reference, e.g. the bank transfer's (pay)
  --paid-at <YYYY-MM-DD> the day it was paid (pay; default today)
  -h, --help             show this help`,

  async run(args) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        month: { type: 'string' },
        account: { type: 'string' },
        amount: { type: 'string' },
        reference: { type: 'string' },
        'paid-at': { type: 'string' },
      },
      true,
    );
    const [action, ...rest] = positionals;
    if (action === 'finalize') {
      if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
      if (!values.month) throw new UsageError('say which month: --month 2026-10');
      const month = values.month;
      const summary = await withDatabase(() => closeMonth(COMMAND_LINE, { month }).catch(refusal), {
        seedIfEmpty: false,
      });
      console.log(
        summary.statements === 0
          ? `Nothing to finalize: every account's statements through ${summary.month} were finalized already.`
          : `Finalized ${summary.statements} statement${summary.statements === 1 ? '' : 's'} of ${summary.accounts} account${summary.accounts === 1 ? '' : 's'} through ${summary.month}; $${dollars(summary.amountDueMicros)} is now due.`,
      );
      return;
    }
    if (action === 'pay') {
      if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
      const missing = (['account', 'month', 'amount', 'reference'] as const).filter((name) => !values[name]);
      if (missing.length > 0) throw new UsageError(`missing ${missing.map((m) => `--${m}`).join(', ')}`);
      const entry: PaymentEntry = {
        account: values.account!,
        month: values.month!,
        amount: values.amount!,
        reference: values.reference!,
        paidAt: values['paid-at'] ?? todayUtc(),
      };
      const done = await withDatabase(() => recordPayments(COMMAND_LINE, [entry]).catch(refusal), {
        seedIfEmpty: false,
      });
      console.log(`Recorded the payment of $${done.amount} for ${entry.month}.`);
      return;
    }
    if (action === 'payments') {
      const [file, ...more] = rest;
      if (!file) throw new UsageError('name the CSV file: npm run statements -- payments payments.csv');
      if (more.length > 0) throw new UsageError(`unexpected argument "${more[0]}"`);
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (err) {
        throw new CommandError(`cannot read ${file}: ${(err as Error).message}`);
      }
      const done = await withDatabase(
        () =>
          Promise.resolve()
            .then(() => recordPayments(COMMAND_LINE, parsePaymentsCsv(text), { fromFile: true }))
            .catch(refusal),
        { seedIfEmpty: false },
      );
      console.log(`Recorded ${done.payments} payment${done.payments === 1 ? '' : 's'}, $${done.amount} in all.`);
      return;
    }
    throw new UsageError(action ? `unknown action "${action}"` : 'say "finalize", "pay" or "payments"');
  },
};

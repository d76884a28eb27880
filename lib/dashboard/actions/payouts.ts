'use server';

import { z } from 'zod';
import { closeMonth, parsePaymentsCsv, recordPayments } from '@/lib/payments';
import { AppError } from '@/lib/shared/errors';
import { dollars } from '@/lib/shared/money';
import { serverAction } from '../action';

const PAGE = ['/admin/payouts'];
const MALFORMED = 'The request was malformed.';
/** A payments file larger than this is not a month's payments. */
const MAX_FILE_BYTES = 1_000_000;

/** "Finalize": closes the month (and any earlier month not closed) for every publisher account. */
export const closeMonthAction = serverAction(
  { input: z.tuple([z.string().max(10)]), invalid: MALFORMED, revalidate: PAGE },
  async ([month], { principal }) => {
    const done = await closeMonth(principal, { month });
    return done.statements === 0
      ? `Nothing changed: every account's statements through ${done.month} were finalized already.`
      : `Finalized ${done.statements} statements of ${done.accounts} accounts through ${done.month}; $${dollars(done.amountDueMicros)} is now due.`;
  },
);

/** The form React sends (whichever FormData class the server's bundle has). */
const formData = z.custom<FormData>(
  (v) => typeof (v as FormData | null)?.get === 'function' && typeof (v as FormData).getAll === 'function',
);

/** "Record payment" of one statement, or a CSV file of them (all or none). */
export const recordPaymentAction = serverAction(
  { input: z.tuple([formData]), invalid: MALFORMED, revalidate: PAGE },
  async ([form], { principal }) => {
    const field = (name: string) => (typeof form.get(name) === 'string' ? (form.get(name) as string) : '');
    const file = form.get('file');
    if (file instanceof File) {
      if (file.size > MAX_FILE_BYTES)
        throw new AppError('too_large', 'The file is over 1 MB: that is not a payments file.');
      const done = await recordPayments(principal, parsePaymentsCsv(await file.text()), { fromFile: true });
      return `Recorded ${done.payments} payments, $${done.amount} in all.`;
    }
    const entry = {
      account: field('account'),
      month: field('month'),
      amount: field('amount'),
      paidAt: field('paidAt'),
      reference: field('reference'),
    };
    const done = await recordPayments(principal, [entry]);
    return `Recorded the payment of $${done.amount} for ${entry.month}.`;
  },
);

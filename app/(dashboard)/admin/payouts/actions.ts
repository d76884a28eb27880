'use server';

import { revalidatePath } from 'next/cache';
import { requireUser } from '@/lib/dashboard/session';
import { finalizeMonth, parsePaymentsCsv, recordPayments } from '@/lib/payments';
import { AppError } from '@/lib/shared/errors';
import { dollars } from '@/lib/shared/money';

export type PayoutResult = { ok: boolean; message: string; lines?: string[] };

const MALFORMED: PayoutResult = { ok: false, message: 'The request was malformed.' };
/** A payments file larger than this is not a month's payments. */
const MAX_FILE_BYTES = 1_000_000;

function refused(err: unknown): PayoutResult {
  if (!(err instanceof AppError) || err.code === 'unavailable') throw err;
  const lines = err.errors && err.errors.length > 1 ? err.errors : undefined;
  return {
    ok: false,
    message: err.detail,
    lines: lines?.map((e) => `${e.line ? `Line ${e.line}, ` : ''}${e.parameter}: ${e.detail}`),
  };
}

/** "Finalize": closes the month (and any earlier month not closed) for every publisher account. */
export async function finalizeAction(month: unknown): Promise<PayoutResult> {
  if (typeof month !== 'string' || month.length > 10) return MALFORMED;
  try {
    const done = await finalizeMonth((await requireUser()).principal, { month });
    revalidatePath('/admin/payouts');
    return {
      ok: true,
      message:
        done.statements === 0
          ? `Nothing changed: every account's statements through ${done.month} were finalized already.`
          : `Finalized ${done.statements} statements of ${done.accounts} accounts through ${done.month}; $${dollars(done.amountDueMicros)} is now due.`,
    };
  } catch (err) {
    return refused(err);
  }
}

/** "Record payment" of one statement, or a CSV file of them (all or none). */
export async function recordPaymentAction(form: FormData): Promise<PayoutResult> {
  const field = (name: string) => (typeof form.get(name) === 'string' ? (form.get(name) as string) : '');
  try {
    const principal = (await requireUser()).principal;
    const file = form.get('file');
    if (file instanceof File) {
      if (file.size > MAX_FILE_BYTES)
        return { ok: false, message: 'The file is over 1 MB: that is not a payments file.' };
      const done = await recordPayments(principal, parsePaymentsCsv(await file.text()), { fromFile: true });
      revalidatePath('/admin/payouts');
      return { ok: true, message: `Recorded ${done.payments} payments, $${done.amount} in all.` };
    }
    const entry = {
      account: field('account'),
      month: field('month'),
      amount: field('amount'),
      paidAt: field('paidAt'),
      reference: field('reference'),
    };
    const done = await recordPayments(principal, [entry]);
    revalidatePath('/admin/payouts');
    return { ok: true, message: `Recorded the payment of $${done.amount} for ${entry.month}.` };
  } catch (err) {
    return refused(err);
  }
}

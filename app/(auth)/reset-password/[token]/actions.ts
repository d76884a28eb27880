'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { resetPassword } from '@/lib/identity';
import { actionClientAddress } from '@/lib/dashboard/session';
import { runAfterResponse } from '@/lib/http/background';
import { kickSender } from '@/lib/mail';
import { AppError } from '@/lib/shared/errors';

export interface ResetPasswordState {
  errors?: { password?: string; confirm?: string };
  /** The link no longer works (used, superseded, expired): the page offers a new one. */
  expired?: boolean;
}

const fields = z.object({ token: z.string().max(200), password: z.string().max(1024), confirm: z.string().max(1024) });

/**
 * Sets the new password from a reset link, then sends the person to sign in with it (OWASP: no automatic
 * sign-in after a reset; the one way in keeps its checks, throttle and activity log).
 */
export async function resetPasswordAction(_: ResetPasswordState, form: FormData): Promise<ResetPasswordState> {
  const parsed = fields.safeParse({
    token: form.get('token'),
    password: form.get('password'),
    confirm: form.get('confirm'),
  });
  if (!parsed.success) return { expired: true };
  const { token, password, confirm } = parsed.data;
  if (password !== confirm) return { errors: { confirm: 'The two passwords differ: type the same one twice.' } };
  try {
    await resetPassword(token, password, await actionClientAddress());
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'not_found') return { expired: true };
    return { errors: { password: err.errors?.[0]?.detail ?? err.detail } };
  }
  runAfterResponse(kickSender);
  redirect('/login?reset=done');
}

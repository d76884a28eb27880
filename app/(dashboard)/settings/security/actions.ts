'use server';

import { z } from 'zod';
import { changePassword } from '@/lib/accounts';
import { actionClientAddress, currentSessionToken, requireUser } from '@/lib/dashboard/session';
import { runAfterResponse } from '@/lib/http/background';
import { kickSender } from '@/lib/mail';
import { AppError } from '@/lib/shared/errors';

type FieldName = 'currentPassword' | 'newPassword' | 'confirm';

export interface ChangePasswordState {
  errors?: Partial<Record<FieldName | 'form', string>>;
  /** Set after a change: the form is cleared and this is announced. */
  done?: string;
}

const fields = z.object({
  currentPassword: z.string().max(1024),
  newPassword: z.string().max(1024),
  confirm: z.string().max(1024),
});

/** Changes the signed-in person's password (never a viewed publisher's): lib/accounts/password-change.ts. */
export async function changePasswordAction(_: ChangePasswordState, form: FormData): Promise<ChangePasswordState> {
  const { principal } = await requireUser();
  const parsed = fields.safeParse(
    Object.fromEntries(['currentPassword', 'newPassword', 'confirm'].map((k) => [k, form.get(k)])),
  );
  if (!parsed.success) return { errors: { form: 'The request was malformed; reload the page and try again.' } };
  const { currentPassword, newPassword, confirm } = parsed.data;
  if (!currentPassword) return { errors: { currentPassword: 'Enter your current password.' } };
  if (newPassword !== confirm) return { errors: { confirm: 'The two new passwords differ: type the same one twice.' } };
  try {
    await changePassword(
      { ...principal, clientAddress: await actionClientAddress() },
      { currentPassword, newPassword },
      await currentSessionToken(),
    );
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const field = err.errors?.[0]?.parameter;
    if (field === 'currentPassword' || field === 'newPassword') return { errors: { [field]: err.errors![0].detail } };
    return { errors: { form: err.detail } };
  }
  runAfterResponse(kickSender);
  return { done: 'Your password was changed. Every other session of your account was signed out; this one stays.' };
}

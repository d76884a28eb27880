'use server';

import { z } from 'zod';
import { revalidatePath } from 'next/cache';
import {
  changePassword,
  confirmTwoFactor,
  disableTwoFactor,
  endSession,
  startTwoFactorSetup,
  type TwoFactorSetup,
} from '@/lib/identity';
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

/** Changes the signed-in person's password (never a viewed publisher's): lib/identity/password-change.ts. */
export async function changePasswordAction(_: ChangePasswordState, form: FormData): Promise<ChangePasswordState> {
  const { principal } = await requireUser(undefined, { duringTwoFactorSetup: true });
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

export type TwoFactorResult =
  { ok: true; setup?: TwoFactorSetup; recoveryCodes?: string[]; message?: string } | { ok: false; message: string };

/** The signed-in person, even one who is being led to set up two-factor sign-in. */
const person = async () => (await requireUser(undefined, { duringTwoFactorSetup: true })).principal;

function refusedTwoFactor(err: unknown): TwoFactorResult {
  if (err instanceof AppError) return { ok: false, message: err.errors?.[0]?.detail ?? err.detail };
  throw err;
}

const code = z.string().max(64);

/** "Turn on": a new secret, as a QR code and as text; it works once a code from it is confirmed. */
export async function startTwoFactorAction(): Promise<TwoFactorResult> {
  try {
    return { ok: true, setup: await startTwoFactorSetup(await person()) };
  } catch (err) {
    return refusedTwoFactor(err);
  }
}

/** "Confirm": the first code from the app; the recovery codes come back this once. */
export async function confirmTwoFactorAction(sent: unknown): Promise<TwoFactorResult> {
  const parsed = code.safeParse(sent);
  if (!parsed.success) return { ok: false, message: 'Type the 6 digits your app shows.' };
  try {
    const { recoveryCodes } = await confirmTwoFactor(await person(), parsed.data);
    revalidatePath('/settings/security');
    return { ok: true, recoveryCodes };
  } catch (err) {
    return refusedTwoFactor(err);
  }
}

/** "Turn off", with a current code. */
export async function disableTwoFactorAction(sent: unknown): Promise<TwoFactorResult> {
  const parsed = code.safeParse(sent);
  if (!parsed.success) return { ok: false, message: 'Type the 6 digits your app shows.' };
  try {
    await disableTwoFactor(await person(), parsed.data);
    revalidatePath('/settings/security');
    return { ok: true, message: 'Two-factor sign-in is off.' };
  } catch (err) {
    return refusedTwoFactor(err);
  }
}

/** "End" on one of the person's sessions: that browser is signed out at its next request. */
export async function endSessionAction(sessionId: unknown): Promise<{ ok: boolean; message: string }> {
  if (typeof sessionId !== 'string' || sessionId.length > 100)
    return { ok: false, message: 'The request was malformed.' };
  try {
    await endSession(await person(), sessionId);
    revalidatePath('/settings/security');
    return { ok: true, message: 'The session was ended: that browser is signed out.' };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, message: err.detail };
    throw err;
  }
}

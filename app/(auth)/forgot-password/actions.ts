'use server';

import { z } from 'zod';
import { requestPasswordReset } from '@/lib/identity';
import { actionClientAddress } from '@/lib/dashboard/session';
import { runAfterResponse } from '@/lib/http/background';
import { kickSender } from '@/lib/mail';

export interface ForgotPasswordState {
  sentTo?: string;
  error?: string;
  email?: string;
}

const emailField = z.string().trim().toLowerCase().pipe(z.email().max(320));

/**
 * "Forgot password": one answer whether or not the address has an account (lib/identity/password-reset.ts
 * makes the work and the time alike too). The message goes out after the response.
 */
export async function forgotPasswordAction(_: ForgotPasswordState, form: FormData): Promise<ForgotPasswordState> {
  const email = String(form.get('email') ?? '');
  const parsed = emailField.safeParse(email);
  if (!parsed.success) return { error: 'Enter the e-mail address of your account, like name@example.com.', email };
  const result = await requestPasswordReset(parsed.data, await actionClientAddress());
  if (!result.ok) {
    const minutes = Math.ceil(result.retryAfterSeconds / 60);
    return {
      error: `Too many reset requests. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      email,
    };
  }
  runAfterResponse(kickSender);
  return { sentTo: parsed.data };
}

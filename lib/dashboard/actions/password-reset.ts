'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { requestPasswordReset, resetPassword } from '@/lib/identity';
import { badRequest, rateLimited } from '@/lib/shared/errors';
import { formAction } from '../action';
import { actionClientAddress } from '../session';

const emailField = z.string().trim().toLowerCase().pipe(z.email().max(320));

/**
 * "Forgot password": one answer whether or not the address has an account (lib/identity/password-reset.ts
 * makes the work and the time alike too). The message goes out after the response.
 */
export const forgotPasswordAction = formAction(
  {
    anonymous: true,
    input: z.object({ email: emailField }),
    invalid: 'Enter the e-mail address of your account, like name@example.com.',
    echo: ['email'],
  },
  async ({ email }) => {
    const result = await requestPasswordReset(email, await actionClientAddress());
    if (!result.ok) {
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      throw rateLimited(
        `Too many reset requests. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        result.retryAfterSeconds,
      );
    }
    return email;
  },
);

const fields = z.object({ token: z.string().max(200), password: z.string().max(1024), confirm: z.string().max(1024) });

/**
 * Sets the new password from a reset link, then sends the person to sign in with it (OWASP: no automatic
 * sign-in after a reset; the one way in keeps its checks, throttle and activity log).
 */
export const resetPasswordAction = formAction(
  { anonymous: true, input: fields },
  async ({ token, password, confirm }) => {
    if (password !== confirm) throw badRequest('confirm', 'The two passwords differ: type the same one twice.');
    await resetPassword(token, password, await actionClientAddress());
    redirect('/login?reset=done');
  },
);

'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { completeSignIn, signIn, signOut, signOutEverywhere } from '@/lib/identity';
import { AppError, rateLimited } from '@/lib/shared/errors';
import { formAction, redirectingAction } from '../action';
import { actionOrigin, currentSessionToken, safeNextPath, setSessionCookie, takeSessionCookie } from '../session';

const minutes = (seconds: number) => {
  const n = Math.ceil(seconds / 60);
  return `${n} minute${n === 1 ? '' : 's'}`;
};

const credentials = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
  next: z.unknown().optional(),
});

export const signInAction = formAction(
  { anonymous: true, input: credentials, invalid: 'Enter your email and password.', echo: ['email'] },
  async ({ email, password, next }) => {
    const { clientAddress, userAgent } = await actionOrigin();
    const result = await signIn(email, password, clientAddress, userAgent);
    if (!result.ok) {
      if (result.reason === 'throttled') {
        const wait = result.retryAfterSeconds;
        throw rateLimited(`Too many sign-in attempts. Try again in ${minutes(wait)}.`, wait);
      }
      // One message for an unknown email and a wrong password: it must not reveal which accounts exist.
      throw new AppError('unauthorized', 'Invalid email or password');
    }
    await setSessionCookie(result.token, result.expiresAt);
    const path = safeNextPath(next);
    redirect(result.secondFactor ? `/login/two-factor?next=${encodeURIComponent(path)}` : path);
  },
);

const CODE = 'Type the 6-digit code from your app, or a recovery code.';

/** The sign-in's second step: a code from the app, or a recovery code; a new session replaces the waiting one. */
export const secondFactorAction = formAction(
  {
    anonymous: true,
    input: z.object({
      code: z
        .string()
        .max(64)
        .refine((c) => c.trim() !== '', CODE),
      next: z.unknown().optional(),
    }),
    invalid: CODE,
  },
  async ({ code, next }) => {
    const result = await completeSignIn(await currentSessionToken(), code, await actionOrigin());
    // The waiting session expired or was used: start again with the password.
    if (!result) redirect('/login?expired=second-factor');
    if (!result.ok) {
      throw new AppError('invalid', 'This code is not right. Type the code your app shows now, or a recovery code.');
    }
    await setSessionCookie(result.token, result.expiresAt);
    redirect(safeNextPath(next));
  },
);

export const signOutAction = redirectingAction({ anonymous: true, input: z.unknown() }, async () => {
  const token = await takeSessionCookie();
  if (token) await signOut(token);
  redirect('/login');
});

/** Ends every session of the person, this one included: for a lost laptop or a shared computer. */
export const signOutEverywhereAction = redirectingAction(
  { duringTwoFactorSetup: true, input: z.unknown() },
  async (_, { principal }) => {
    await signOutEverywhere(principal);
    await takeSessionCookie();
    redirect('/login');
  },
);

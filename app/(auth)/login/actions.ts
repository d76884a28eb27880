'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import {
  actionOrigin,
  currentSessionToken,
  requireUser,
  safeNextPath,
  setSessionCookie,
  takeSessionCookie,
} from '@/lib/dashboard/session';
import { completeSignIn, signIn, signOut, signOutEverywhere } from '@/lib/identity';
import { AppError } from '@/lib/shared/errors';

export interface SignInState {
  error?: string;
  email?: string;
}

const credentials = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
});

export async function signInAction(_: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get('email') ?? '');
  const parsed = credentials.safeParse({ email, password: form.get('password') });
  if (!parsed.success) return { error: 'Enter your email and password.', email };
  const { clientAddress, userAgent } = await actionOrigin();
  const result = await signIn(parsed.data.email, parsed.data.password, clientAddress, userAgent);
  if (!result.ok) {
    if (result.reason === 'throttled') {
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      return { error: `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, email };
    }
    // One message for an unknown email and a wrong password: it must not reveal which accounts exist.
    return { error: 'Invalid email or password', email };
  }
  await setSessionCookie(result.token, result.expiresAt);
  const next = safeNextPath(form.get('next'));
  redirect(result.secondFactor ? `/login/two-factor?next=${encodeURIComponent(next)}` : next);
}

export interface SecondFactorState {
  error?: string;
}

/** The sign-in's second step: a code from the app, or a recovery code; a new session replaces the waiting one. */
export async function secondFactorAction(_: SecondFactorState, form: FormData): Promise<SecondFactorState> {
  const code = z.string().max(64).safeParse(form.get('code'));
  if (!code.success || !code.data.trim()) return { error: 'Type the 6-digit code from your app, or a recovery code.' };
  let result: Awaited<ReturnType<typeof completeSignIn>>;
  try {
    result = await completeSignIn(await currentSessionToken(), code.data, await actionOrigin());
  } catch (err) {
    if (err instanceof AppError && err.code === 'rate_limited') return { error: err.detail };
    throw err;
  }
  // The waiting session expired or was used: start again with the password.
  if (!result) redirect('/login?expired=second-factor');
  if (!result.ok) return { error: 'This code is not right. Type the code your app shows now, or a recovery code.' };
  await setSessionCookie(result.token, result.expiresAt);
  redirect(safeNextPath(form.get('next')));
}

export async function signOutAction() {
  const token = await takeSessionCookie();
  if (token) await signOut(token);
  redirect('/login');
}

/** Ends every session of the user, this one included: for a lost laptop or a shared computer. */
export async function signOutEverywhereAction() {
  const { principal } = await requireUser(undefined, { duringTwoFactorSetup: true });
  await signOutEverywhere(principal);
  await takeSessionCookie();
  redirect('/login');
}

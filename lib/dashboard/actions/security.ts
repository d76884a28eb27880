'use server';

import { z } from 'zod';
import { changePassword, confirmTwoFactor, disableTwoFactor, endSession, startTwoFactorSetup } from '@/lib/identity';
import { badRequest } from '@/lib/shared/errors';
import { formAction, serverAction } from '../action';
import { actionClientAddress, currentSessionToken } from '../session';

const PAGE = ['/settings/security'];

/** The Security page serves a person who is being led to set up two-factor sign-in too. */
const PERSON = { duringTwoFactorSetup: true } as const;

const passwordFields = z.object({
  currentPassword: z.string().max(1024),
  newPassword: z.string().max(1024),
  confirm: z.string().max(1024),
});

/** Changes the signed-in person's password (never a viewed publisher's): lib/identity/password-change.ts. */
export const changePasswordAction = formAction(
  { ...PERSON, input: passwordFields },
  async ({ currentPassword, newPassword, confirm }, { principal }) => {
    if (!currentPassword) throw badRequest('currentPassword', 'Enter your current password.');
    if (newPassword !== confirm) throw badRequest('confirm', 'The two new passwords differ: type the same one twice.');
    await changePassword(
      { ...principal, clientAddress: await actionClientAddress() },
      { currentPassword, newPassword },
      await currentSessionToken(),
    );
    return 'Your password was changed. Every other session of your account was signed out; this one stays.';
  },
);

const code = z.tuple([z.string().max(64, { error: 'Type the 6 digits your app shows.' })]);

/** "Turn on": a new secret, as a QR code and as text; it works once a code from it is confirmed. */
export const startTwoFactorAction = serverAction({ ...PERSON, input: z.tuple([]) }, async (_, { principal }) =>
  startTwoFactorSetup(principal),
);

/** "Confirm": the first code from the app; the recovery codes come back this once. */
export const confirmTwoFactorAction = serverAction(
  { ...PERSON, input: code, invalid: 'Type the 6 digits your app shows.', revalidate: PAGE },
  async ([sent], { principal }) => (await confirmTwoFactor(principal, sent)).recoveryCodes,
);

/** "Turn off", with a current code. */
export const disableTwoFactorAction = serverAction(
  { ...PERSON, input: code, invalid: 'Type the 6 digits your app shows.', revalidate: PAGE },
  async ([sent], { principal }) => {
    await disableTwoFactor(principal, sent);
    return 'Two-factor sign-in is off.';
  },
);

/** "End" on one of the person's sessions: that browser is signed out at its next request. */
export const endSessionAction = serverAction(
  { ...PERSON, input: z.tuple([z.string().max(100)]), invalid: 'The request was malformed.', revalidate: PAGE },
  async ([sessionId], { principal }) => {
    await endSession(principal, sessionId);
    return 'The session was ended: that browser is signed out.';
  },
);

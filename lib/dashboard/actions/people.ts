'use server';

import { z } from 'zod';
import { resetTwoFactorAsAdmin } from '@/lib/identity';
import { serverAction } from '../action';

/** "Reset two-factor": for someone who lost their phone and codes, after checking who they are by other means. */
export const resetTwoFactorAction = serverAction(
  { input: z.tuple([z.string().max(100)]), invalid: 'The request was malformed.', revalidate: ['/admin/people'] },
  async ([personId], { principal }) => {
    const { email } = await resetTwoFactorAsAdmin(principal, personId);
    return `Two-factor sign-in of ${email} was reset: they sign in with the password and set it up again.`;
  },
);

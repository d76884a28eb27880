'use server';

import { revalidatePath } from 'next/cache';
import { resetTwoFactorAsAdmin } from '@/lib/identity';
import { requireUser } from '@/lib/dashboard/session';
import { AppError } from '@/lib/shared/errors';

/** "Reset two-factor": for someone who lost their phone and codes, after checking who they are by other means. */
export async function resetTwoFactorAction(personId: unknown): Promise<{ ok: boolean; message: string }> {
  if (typeof personId !== 'string' || personId.length > 100)
    return { ok: false, message: 'The request was malformed.' };
  try {
    const { email } = await resetTwoFactorAsAdmin((await requireUser()).principal, personId);
    revalidatePath('/admin/people');
    return {
      ok: true,
      message: `Two-factor sign-in of ${email} was reset: they sign in with the password and set it up again.`,
    };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, message: err.detail };
    throw err;
  }
}

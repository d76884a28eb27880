'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { acceptInvitation } from '@/lib/accounts';
import { actionClientAddress, setSessionCookie } from '@/lib/dashboard/session';
import { AppError } from '@/lib/shared/errors';

export interface AcceptState {
  errors?: { password?: string; confirm?: string; form?: string };
}

const fields = z.object({
  token: z.string().min(1).max(200),
  password: z.string().max(1024),
  confirm: z.string().max(1024),
});

/** Sets the first password from an invitation link and signs in: the service checks the link and the password. */
export async function acceptInvitationAction(_: AcceptState, form: FormData): Promise<AcceptState> {
  const sent = fields.safeParse(Object.fromEntries(form));
  if (!sent.success) return { errors: { form: 'The request was malformed; reload the page and try again.' } };
  const { token, password, confirm } = sent.data;
  if (password !== confirm) return { errors: { confirm: 'The two passwords differ: type the same one twice.' } };
  let session: Awaited<ReturnType<typeof acceptInvitation>>;
  try {
    session = await acceptInvitation(token, password, await actionClientAddress());
  } catch (err) {
    if (!(err instanceof AppError) || err.errors?.[0]?.parameter !== 'password') throw err;
    return { errors: { password: `The password ${err.errors[0].detail}.` } };
  }
  // The link no longer opens an invited account (used meanwhile, expired, replaced): the page says so.
  if (!session) redirect(`/invitation/${encodeURIComponent(token)}`);
  await setSessionCookie(session.token, session.expiresAt);
  redirect('/');
}

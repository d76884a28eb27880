'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { acceptInvitation } from '@/lib/accounts';
import { actionOrigin, setSessionCookie } from '@/lib/dashboard/session';
import { AppError } from '@/lib/shared/errors';

export interface AcceptState {
  errors?: { password?: string; confirm?: string; form?: string };
}

const fields = z.object({
  token: z.string().min(1).max(200),
  name: z.string().max(200).optional(),
  password: z.string().max(1024),
  /** Absent when the invitee joins with the password they already have. */
  confirm: z.string().max(1024).optional(),
});

/**
 * Joins the account an invitation link opens, with a first password or the one the invitee already has, and
 * signs in there (after the code step for a person with a second factor): the service checks the link and the
 * password.
 */
export async function acceptInvitationAction(_: AcceptState, form: FormData): Promise<AcceptState> {
  const sent = fields.safeParse(Object.fromEntries(form));
  if (!sent.success) return { errors: { form: 'The request was malformed; reload the page and try again.' } };
  const { token, name, password, confirm } = sent.data;
  if (confirm !== undefined && password !== confirm) {
    return { errors: { confirm: 'The two passwords differ: type the same one twice.' } };
  }
  let session: Awaited<ReturnType<typeof acceptInvitation>>;
  try {
    session = await acceptInvitation(token, { password, name }, await actionOrigin());
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'rate_limited') return { errors: { form: err.detail } };
    const problem = err.errors?.[0];
    if (problem?.parameter !== 'password') throw err;
    // A rule's words follow "The password"; a wrong existing password is a sentence of its own.
    return { errors: { password: confirm === undefined ? problem.detail : `The password ${problem.detail}.` } };
  }
  // The link no longer opens anything (used meanwhile, expired, replaced, revoked): the page says so.
  if (!session) redirect(`/invitation/${encodeURIComponent(token)}`);
  await setSessionCookie(session.token, session.expiresAt);
  const landing = `/?as=${session.accountId}`;
  // A person with a second factor gives their code first, as at every sign-in.
  redirect(session.secondFactor ? `/login/two-factor?next=${encodeURIComponent(landing)}` : landing);
}

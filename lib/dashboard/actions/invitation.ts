'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { acceptInvitation } from '@/lib/accounts';
import { badRequest } from '@/lib/shared/errors';
import { formAction } from '../action';
import { actionOrigin, setSessionCookie } from '../session';

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
export const acceptInvitationAction = formAction(
  { anonymous: true, input: fields },
  async ({ token, name, password, confirm }) => {
    if (confirm !== undefined && password !== confirm) {
      throw badRequest('confirm', 'The two passwords differ: type the same one twice.');
    }
    const session = await acceptInvitation(token, { password, name }, await actionOrigin());
    // The link no longer opens anything (used meanwhile, expired, replaced, revoked): the page says so.
    if (!session) redirect(`/invitation/${encodeURIComponent(token)}`);
    await setSessionCookie(session.token, session.expiresAt);
    const landing = `/?as=${session.accountId}`;
    // A person with a second factor gives their code first, as at every sign-in.
    redirect(session.secondFactor ? `/login/two-factor?next=${encodeURIComponent(landing)}` : landing);
  },
);

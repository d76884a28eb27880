'use server';

import { z } from 'zod';
import {
  changeMemberRole,
  inviteMember,
  leaveAccount,
  removeMember,
  resendMemberInvitation,
  revokeInvitation,
} from '@/lib/accounts';
import { MEMBER_ROLES } from '@/lib/access';
import { setTwoFactorRequired } from '@/lib/identity';
import { serverAction } from '../action';

const PAGE = ['/settings/members'];

const invitation = z.object({
  email: z.email({ error: 'Enter an e-mail address, like name@example.com.' }).max(320),
  role: z.enum(MEMBER_ROLES),
  siteIds: z.array(z.string().max(100)).max(1000),
});

/** "Invite": by e-mail with a role (a Viewer's sites); the link goes only into the e-mail. */
export const inviteMemberAction = serverAction(
  { account: true, input: z.tuple([invitation]), revalidate: PAGE },
  async ([fields], { principal }) => {
    const { email } = await inviteMember(principal, fields);
    return `Invitation sent to ${email}. It works for 72 hours; resend or revoke it below.`;
  },
);

const change = z.discriminatedUnion('what', [
  z.object({ what: z.literal('resend'), id: z.string().max(100) }),
  z.object({ what: z.literal('revoke'), id: z.string().max(100) }),
  z.object({ what: z.literal('remove'), id: z.string().max(100) }),
  z.object({
    what: z.literal('role'),
    id: z.string().max(100),
    role: z.enum(MEMBER_ROLES),
    siteIds: z.array(z.string().max(100)).max(1000),
  }),
]);

/** A row's change (resend or revoke an invitation, a new role, removal); the result is announced. */
export const memberAction = serverAction(
  { account: true, input: z.tuple([change]), revalidate: PAGE },
  async ([sent], { principal }) => {
    if (sent.what === 'resend') {
      await resendMemberInvitation(principal, sent.id);
      return 'A new invitation was e-mailed; the earlier link no longer works.';
    }
    if (sent.what === 'revoke') {
      await revokeInvitation(principal, sent.id);
      return 'The invitation was revoked; its link no longer works.';
    }
    if (sent.what === 'remove') {
      await removeMember(principal, sent.id);
      return 'The member was removed and can no longer see this account.';
    }
    await changeMemberRole(principal, sent.id, { role: sent.role, siteIds: sent.siteIds });
    return 'The role was changed.';
  },
);

/** "Leave this account": the member goes; they land on another account of theirs, or at the sign-in page. */
export const leaveAccountAction = serverAction({ account: true, input: z.tuple([]) }, async (_, { principal }) => {
  await leaveAccount(principal);
  return 'You left the account.';
});

/** An Owner's switch: every member must sign in with two factors (those without are led to set it up). */
export const requireTwoFactorAction = serverAction(
  // No revalidation: the switch holds its own state, and re-rendering here would lead an Owner without a
  // second factor to its setup at once, racing the message away; their next page leads them there instead.
  { account: true, input: z.tuple([z.boolean()]) },
  async ([required], { principal }) => {
    await setTwoFactorRequired(principal, required);
    return required
      ? 'Two-factor sign-in is now required: members without it set it up at their next page.'
      : 'Two-factor sign-in is no longer required.';
  },
);

'use server';

import { revalidatePath } from 'next/cache';
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
import { actingPrincipal } from '@/lib/dashboard/session';
import { runAfterResponse } from '@/lib/http/background';
import { kickSender } from '@/lib/mail';
import { AppError } from '@/lib/shared/errors';

const PAGE = '/settings/members';
const MALFORMED = 'The request was malformed; reload the page and try again.';

export type MemberActionResult = { ok: boolean; message: string; field?: string };

const invitation = z.object({
  email: z.email({ error: 'Enter an e-mail address, like name@example.com.' }).max(320),
  role: z.enum(MEMBER_ROLES),
  siteIds: z.array(z.string().max(100)).max(1000),
});

/** What a refusal says, on the field it is about when it names one ("email: …"). */
function refused(err: unknown): MemberActionResult {
  if (!(err instanceof AppError)) throw err;
  const field = err.errors?.[0]?.parameter ?? /^(\w+): /.exec(err.detail)?.[1];
  return { ok: false, message: err.errors?.[0]?.detail ?? err.detail.replace(/^\w+: /, ''), field };
}

/** "Invite": by e-mail with a role (a Viewer's sites); the link goes only into the e-mail. */
export async function inviteMemberAction(account: string | null, fields: unknown): Promise<MemberActionResult> {
  const parsed = invitation.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: issue.path[0] === 'email' ? issue.message : MALFORMED, field: String(issue.path[0]) };
  }
  try {
    const { email } = await inviteMember(await actingPrincipal(account), parsed.data);
    runAfterResponse(kickSender);
    revalidatePath(PAGE);
    return { ok: true, message: `Invitation sent to ${email}. It works for 72 hours; resend or revoke it below.` };
  } catch (err) {
    return refused(err);
  }
}

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
export async function memberAction(account: string | null, request: unknown): Promise<MemberActionResult> {
  const parsed = change.safeParse(request);
  if (!parsed.success) return { ok: false, message: MALFORMED };
  const sent = parsed.data;
  try {
    const principal = await actingPrincipal(account);
    let message: string;
    if (sent.what === 'resend') {
      await resendMemberInvitation(principal, sent.id);
      message = 'A new invitation was e-mailed; the earlier link no longer works.';
    } else if (sent.what === 'revoke') {
      await revokeInvitation(principal, sent.id);
      message = 'The invitation was revoked; its link no longer works.';
    } else if (sent.what === 'remove') {
      await removeMember(principal, sent.id);
      message = 'The member was removed and can no longer see this account.';
    } else {
      await changeMemberRole(principal, sent.id, { role: sent.role, siteIds: sent.siteIds });
      message = 'The role was changed.';
    }
    runAfterResponse(kickSender);
    revalidatePath(PAGE);
    return { ok: true, message };
  } catch (err) {
    return refused(err);
  }
}

/** "Leave this account": the member goes; they land on another account of theirs, or at the sign-in page. */
export async function leaveAccountAction(account: string | null): Promise<MemberActionResult> {
  try {
    await leaveAccount(await actingPrincipal(account));
    return { ok: true, message: 'You left the account.' };
  } catch (err) {
    return refused(err);
  }
}

/** An Owner's switch: every member must sign in with two factors (those without are led to set it up). */
export async function requireTwoFactorAction(account: string | null, required: unknown): Promise<MemberActionResult> {
  if (typeof required !== 'boolean') return { ok: false, message: MALFORMED };
  try {
    await setTwoFactorRequired(await actingPrincipal(account), required);
    // No revalidatePath: the switch holds its own state, and re-rendering here would lead an Owner without a
    // second factor to its setup at once, racing the message away; their next page leads them there instead.
    return {
      ok: true,
      message: required
        ? 'Two-factor sign-in is now required: members without it set it up at their next page.'
        : 'Two-factor sign-in is no longer required.',
    };
  } catch (err) {
    return refused(err);
  }
}

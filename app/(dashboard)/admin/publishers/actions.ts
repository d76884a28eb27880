'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import {
  createPublisher,
  createPublisherInput,
  deactivatePublisher,
  reactivatePublisher,
  resendInvitation,
  sendPasswordResetAsAdmin,
} from '@/lib/accounts';
import type { Principal } from '@/lib/access';
import { requireUser } from '@/lib/dashboard/session';
import { runAfterResponse } from '@/lib/http/background';
import { kickSender } from '@/lib/mail';
import { AppError } from '@/lib/shared/errors';
import { fieldErrorsOf, topField } from '@/lib/shared/zod-issues';

const PAGE = '/admin/publishers';
const MALFORMED = 'The request was malformed; reload the page and try again.';

export type CreatePublisherResult =
  { ok: true; name: string; email: string } | { ok: false; errors: { email?: string; name?: string; form?: string } };

/** The signed-in admin, with this request's address (requireUser's principal carries it). */
async function actingAdmin(): Promise<Principal> {
  return (await requireUser()).principal;
}

/**
 * "New publisher": the same schema and service as POST /api/v1/admin/publishers. The invitation link goes only
 * to the publisher's e-mail address; the admin is told it was sent.
 */
export async function createPublisherAction(fields: { email: string; name: string }): Promise<CreatePublisherResult> {
  const principal = await actingAdmin();
  const parsed = createPublisherInput.safeParse(fields);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const e of fieldErrorsOf(parsed.error, 'form')) errors[topField(e.parameter)] ??= e.detail;
    return {
      ok: false,
      errors: {
        email: errors.email && `E-mail ${errors.email}`,
        name: errors.name && `Name ${errors.name}`,
        form: errors.form,
      },
    };
  }
  try {
    const { publisher } = await createPublisher(principal, parsed.data);
    runAfterResponse(kickSender);
    revalidatePath(PAGE);
    return { ok: true, name: publisher.name, email: publisher.email };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'conflict') return { ok: false, errors: { email: 'An account with this e-mail already exists.' } };
    return { ok: false, errors: { form: err.detail } };
  }
}

export type RowActionResult = { ok: boolean; message: string };
const ROW_ACTIONS = {
  invitation: async (p: Principal, id: string) =>
    `A new invitation was e-mailed to ${(await resendInvitation(p, id)).publisher.email}; the earlier link no longer works.`,
  deactivate: async (p: Principal, id: string) =>
    `${(await deactivatePublisher(p, id)).name} was deactivated: signed out everywhere, API keys revoked.`,
  reset: async (p: Principal, id: string) =>
    `A password reset link was e-mailed to ${(await sendPasswordResetAsAdmin(p, id)).sentTo}; it works for 60 minutes.`,
  reactivate: async (p: Principal, id: string) => {
    const publisher = await reactivatePublisher(p, id);
    return publisher.status === 'active'
      ? `${publisher.name} can sign in again (API keys stay revoked).`
      : `${publisher.name} is invited again: send a new invitation so they can choose a password.`;
  },
};

/** A row's action (resend invitation, deactivate, reactivate); the result is announced on the page. */
export async function publisherRowAction(what: keyof typeof ROW_ACTIONS, id: string): Promise<RowActionResult> {
  const principal = await actingAdmin();
  const sent = z.object({ what: z.enum(['invitation', 'reset', 'deactivate', 'reactivate']), id: z.string().max(100) });
  const parsed = sent.safeParse({ what, id });
  if (!parsed.success) return { ok: false, message: MALFORMED };
  try {
    const message = await ROW_ACTIONS[parsed.data.what](principal, parsed.data.id);
    runAfterResponse(kickSender); // an invitation or a reset link was queued
    revalidatePath(PAGE);
    return { ok: true, message };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, message: err.detail };
    throw err;
  }
}

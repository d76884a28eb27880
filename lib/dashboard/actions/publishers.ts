'use server';

import { z } from 'zod';
import {
  createPublisher,
  createPublisherInput,
  deactivatePublisher,
  reactivatePublisher,
  resendInvitation,
  sendPasswordResetAsOperator,
} from '@/lib/accounts';
import { type Principal } from '@/lib/access';
import { serverAction } from '../action';

const PAGE = ['/admin/publishers'];

/**
 * "New publisher": the same schema and service as POST /api/v1/admin/publishers. The invitation link goes only
 * to the publisher's e-mail address; the admin is told it was sent.
 */
export const createPublisherAction = serverAction(
  { input: z.tuple([createPublisherInput]), revalidate: PAGE },
  async ([fields], { principal }) => {
    const { publisher } = await createPublisher(principal, fields);
    return { name: publisher.name, email: publisher.email };
  },
);

const ROW_ACTIONS = {
  invitation: async (p: Principal, id: string) =>
    `A new invitation was e-mailed to ${(await resendInvitation(p, id)).publisher.email}; the earlier link no longer works.`,
  deactivate: async (p: Principal, id: string) =>
    `${(await deactivatePublisher(p, id)).name} was deactivated: signed out everywhere, API keys revoked.`,
  reset: async (p: Principal, id: string) =>
    `A password reset link was e-mailed to ${(await sendPasswordResetAsOperator(p, id)).sentTo}; it works for 60 minutes.`,
  reactivate: async (p: Principal, id: string) => {
    const publisher = await reactivatePublisher(p, id);
    return publisher.status === 'active'
      ? `${publisher.name} can sign in again (API keys stay revoked).`
      : `${publisher.name} is invited again: send a new invitation so they can choose a password.`;
  },
};

/** A row's action (resend invitation, send a reset link, deactivate, reactivate); the result is announced. */
export const publisherRowAction = serverAction(
  {
    input: z.tuple([z.enum(['invitation', 'reset', 'deactivate', 'reactivate']), z.string().max(100)]),
    revalidate: PAGE,
  },
  async ([what, id], { principal }) => ROW_ACTIONS[what](principal, id),
);

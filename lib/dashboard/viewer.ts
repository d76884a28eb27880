import { cache } from 'react';
import { AppError } from '@/lib/shared/errors';
import { isOperator, type Principal } from '@/lib/access';
import { listPublishers, viewAsPublisher, type AccountSummary } from '@/lib/accounts';
import { principalOf, type SessionPerson } from '@/lib/identity';
import { paramOf, VIEW_AS, type SearchParams } from './url';

/** The publishers an admin may view, read once per request (the layout's switch and the page's chooser). */
export const publishersFor = cache((principal: Principal) => listPublishers(principal));

/** Whose figures a dashboard page shows. */
export type Viewer =
  /** A publisher's own dashboard, or the one an admin chose (`viewingAs`). */
  | { kind: 'ready'; principal: Principal; viewingAs: AccountSummary | null }
  /** An operator who has not chosen a publisher: the operator's account has no sites, its own figures are zero. */
  | { kind: 'choose'; publishers: AccountSummary[] }
  /** `?as=` that cannot be shown: a publisher asking, or no such publisher. */
  | { kind: 'refused'; error: AppError };

/**
 * The principal a dashboard page reads with, from the signed-in person and the URL. Only the reports and the
 * keys list read through it; server actions always act as the signed-in person, and the viewed principal is
 * marked so that every write refuses it as well.
 */
export async function viewerOf(
  user: SessionPerson,
  params: SearchParams | URLSearchParams,
  { ownIsEnough = false } = {},
): Promise<Viewer> {
  const publisherId = paramOf(params, VIEW_AS);
  // One of the person's own accounts: they act there with their role in it.
  const own = user.memberships.find((m) => m.accountId === publisherId?.toLowerCase());
  if (own) {
    const principal = { ...principalOf(user.personId, own), clientAddress: user.principal.clientAddress };
    return { kind: 'ready', principal, viewingAs: null };
  }
  if (publisherId) {
    try {
      const { principal, publisher } = await viewAsPublisher(user.principal, publisherId);
      return { kind: 'ready', principal, viewingAs: publisher };
    } catch (err) {
      if (err instanceof AppError) return { kind: 'refused', error: err };
      throw err;
    }
  }
  // Only a member whose role grants viewing as (lib/access/roles.ts) is offered the choice.
  if (isOperator(user.principal) && !ownIsEnough) {
    return { kind: 'choose', publishers: await publishersFor(user.principal) };
  }
  return { kind: 'ready', principal: user.principal, viewingAs: null };
}

import { forbidden } from '@/lib/shared/errors';
import type { Principal } from './principal';

/**
 * The two kinds of account, and the rules that depend on the kind, written once: nothing outside lib/access
 * compares a principal's `role` (tests/unit/access-layer.test.ts). What a person may do in either kind is their
 * member role's (roles.ts).
 */
type OfKind = Pick<Principal, 'role'>;

/** Whether it is the operator's account (the platform's admins), whatever the person's role there. */
export const isOperatorAccount = (account: OfKind): boolean => account.role === 'admin';

/** Whether it is a publisher's account: one that owns sites, rows, statements and a log of its own. */
export const isPublisherAccount = (account: OfKind): boolean => account.role === 'publisher';

/**
 * The account an event of this principal is filed under in the activity log: its own account when that is a
 * publisher's; null for the operator's account, which has no log of its own.
 */
export const ownAccountOf = (principal: Pick<Principal, 'role' | 'userId'>): string | null =>
  isPublisherAccount(principal) ? principal.userId : null;

/** How the activity log names a person who acted: an admin (the operator's account) or a user (a publisher's). */
export const actorKindOf = (principal: OfKind): 'admin' | 'user' => (isOperatorAccount(principal) ? 'admin' : 'user');

/** Refuses (403), with `refusal` saying why, anyone not acting for a publisher account (sites, statements). */
export function requirePublisherAccount(principal: OfKind, refusal: string): void {
  if (!isPublisherAccount(principal)) throw forbidden(refusal);
}

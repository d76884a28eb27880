/**
 * The activity pages' view: which events (kind, account for operators, text), which page, read from the URL and
 * turned into the same input the API's GET /api/v1/audit-events takes, through the same grammar.
 */
import { isOperator, type Principal } from '@/lib/access';
import { listPublishers } from '@/lib/accounts';
import { ACTIVITY_KINDS, type ActivityKind, activityQuery, listActivity } from '@/lib/activity';
import { firstOf, readOwnView, type SearchParams } from './url';

/** Rows per page unless the visitor picks another of the table's sizes. */
const PAGE_SIZES = [20, 50, 100];
const DEFAULT_PAGE_SIZE = 50;

/** Each kind in words, for the table and the kind picker; a new kind must be named here to compile. */
export const KIND_LABELS: Record<ActivityKind, string> = {
  'sign_in.succeeded': 'Signed in',
  'sign_in.failed': 'Sign-in failed',
  'password.changed': 'Password changed',
  'password.reset_requested': 'Password reset requested',
  'password.reset': 'Password reset',
  'account.created': 'Account created',
  'invitation.sent': 'Invitation sent',
  'invitation.accepted': 'Invitation accepted',
  'invitation.revoked': 'Invitation revoked',
  'member.role_changed': 'Member’s role changed',
  'member.removed': 'Member removed',
  'member.left': 'Member left',
  'account.two_factor_required': 'Two-factor sign-in required',
  'two_factor.enabled': 'Two-factor sign-in turned on',
  'two_factor.disabled': 'Two-factor sign-in turned off',
  'two_factor.reset': 'Two-factor sign-in reset by an admin',
  'two_factor.recovery_code_used': 'Recovery code used',
  'session.ended': 'Session ended',
  'account.deactivated': 'Account deactivated',
  'account.reactivated': 'Account reactivated',
  'site.created': 'Site added',
  'site.updated': 'Site edited',
  'site.status_changed': 'Site status changed',
  'site.deleted': 'Site deleted',
  'key.created': 'API key created',
  'key.rotated': 'API key rotated',
  'key.revoked': 'API key revoked',
  'admin.viewed_as': 'Admin viewed the dashboard',
  'revenue.ingested': 'Revenue imported',
  'statement.finalized': 'Statement finalized',
  'payment.recorded': 'Payment recorded',
  'webhook.created': 'Webhook added',
  'webhook.deleted': 'Webhook removed',
  'webhook.disabled': 'Webhook turned off after failing',
};

const isKind = (value: string | undefined): value is ActivityKind => ACTIVITY_KINDS.includes(value as ActivityKind);

export interface ActivityView {
  kind: ActivityKind | null;
  /** Admins only: one publisher account. */
  accountId: string | null;
  text: string | null;
  page: number;
  pageSize: number;
}

/** The view from the URL; what cannot be read (an unknown kind, a bad page) is left out, not an error page. */
export function readActivityView(searchParams: SearchParams, operator: boolean): ActivityView {
  const kind = firstOf(searchParams.kind);
  const accountId = operator ? firstOf(searchParams.account) : undefined;
  const page = Number(firstOf(searchParams.page));
  const pageSize = Number(firstOf(searchParams.pageSize));
  return {
    kind: isKind(kind) ? kind : null,
    accountId: accountId && /^[0-9a-f-]{36}$/i.test(accountId) ? accountId : null,
    text: firstOf(searchParams.q)?.trim().slice(0, 100) || null,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: PAGE_SIZES.includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}

/** The service's input for a view: the API's own parameters, so the grammar checks them once. */
export function activityInput(view: ActivityView, { page = view.page, pageSize = view.pageSize } = {}) {
  const terms = [view.kind && `kind==${view.kind}`, view.accountId && `accountId==${view.accountId}`].filter(Boolean);
  const input = readOwnView(activityQuery, {
    page: String(page),
    pageSize: String(pageSize),
    ...(terms.length > 0 ? { Filter: terms.join(';') } : {}),
    ...(view.text ? { Search: view.text } : {}),
  });
  return input;
}

/**
 * An activity page's data: the view from the URL, its page of events and, for an operator (every account's log,
 * with an account filter), the publishers to filter by. listActivity checks the principal's grant.
 */
export async function loadActivity(principal: Principal, params: SearchParams) {
  const operator = isOperator(principal);
  const view = readActivityView(params, operator);
  const [page, publishers] = await Promise.all([
    listActivity(principal, activityInput(view)),
    operator ? listPublishers(principal) : Promise.resolve(null),
  ]);
  return { operator, view, page, publishers };
}

import { notFound } from 'next/navigation';
import { can } from '@/lib/access';
import { accountLedger, balanceOf, getStatement } from '@/lib/payments';
import { AppError } from '@/lib/shared/errors';
import { requirePerson } from './session';
import type { SearchParams } from './url';
import { viewerOf, type Viewer } from './viewer';

/** A page that shows nothing of its own: whose figures to show is not settled (`viewerOf`). */
type Unsettled = Exclude<Viewer, { kind: 'ready' }>;

/**
 * The Payments page's data, through the services the API's payments operations use: the balance and every
 * statement, newest first. Members whose role does not read statements see why instead (`notGranted`).
 */
export async function loadPayments(params: SearchParams) {
  const viewer = await viewerOf(await requirePerson(), params);
  if (viewer.kind !== 'ready') return viewer satisfies Unsettled;
  if (!can(viewer.principal, 'readStatements')) return { kind: 'notGranted' as const };
  const ledger = await accountLedger(viewer.principal);
  return {
    kind: 'payments' as const,
    balance: balanceOf(ledger),
    newestFirst: [...ledger.statements].reverse(),
  };
}

/** One month's statement (GET /api/v1/payments/statements/{month}'s service); a month it does not have is a 404. */
export async function loadStatement(month: string, params: SearchParams) {
  const viewer = await viewerOf(await requirePerson(), params);
  if (viewer.kind !== 'ready') return viewer satisfies Unsettled;
  if (!can(viewer.principal, 'readStatements')) notFound();
  const { statement } = await getStatement(viewer.principal, month).catch((err) => {
    if (err instanceof AppError && (err.code === 'not_found' || err.code === 'invalid')) notFound();
    throw err;
  });
  return { kind: 'statement' as const, statement };
}

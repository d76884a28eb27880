import type { Metadata } from 'next';
import { PageHeader } from '@/components/layout/page-header';
import { ViewerFallback } from '@/components/layout/viewer-fallback';
import { BalanceCards } from '@/components/payments/balance-cards';
import { StatementsTable } from '@/components/payments/statements-table';
import { Card } from '@/components/ui/card';
import { can } from '@/lib/access';
import { requirePerson } from '@/lib/dashboard/session';
import { clearedViewHref, type SearchParams } from '@/lib/dashboard/url';
import { viewerOf } from '@/lib/dashboard/viewer';
import { accountLedger, balanceOf } from '@/lib/payments';
import { formatUsd } from '@/lib/shared/format';

export const metadata: Metadata = { title: 'Payments · Publisher Portal' };

/** What the account is owed and when it is paid: the balance, the next payment, every monthly statement. */
export default async function PaymentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const viewer = await viewerOf(await requirePerson(), params);
  if (viewer.kind !== 'ready')
    return <ViewerFallback viewer={viewer} title="Payments" path="/payments" params={params} />;
  const { principal } = viewer;
  if (!can(principal, 'readStatements')) {
    return (
      <>
        <PageHeader title="Payments" />
        <Card className="p-6 text-sm text-zinc-700 dark:text-zinc-300">
          Statements and payments are for the account’s Owners and Finance members; ask one of them.
        </Card>
      </>
    );
  }
  const view = await accountLedger(principal);
  const balance = balanceOf(view);
  const newestFirst = [...view.statements].reverse();
  return (
    <>
      <PageHeader
        title="Payments"
        description={`Monthly statements in UTC. A month is estimated until it is closed; a closing balance of at least ${formatUsd(balance.threshold)} is paid after the month, a smaller one is carried over.`}
      />
      <BalanceCards balance={balance} />
      <Card className="relative md:overflow-x-auto" tabIndex={0} role="region" aria-label="Statements">
        {newestFirst.length === 0 ? (
          <p className="p-10 text-center text-sm text-zinc-600 dark:text-zinc-400">
            No statements yet: the first comes with the first month of revenue.
          </p>
        ) : (
          <StatementsTable statements={newestFirst} hrefOf={(path) => clearedViewHref(path, params)} />
        )}
      </Card>
    </>
  );
}

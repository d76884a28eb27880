import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/layout/page-header';
import { NewPublisherDialog } from '@/components/publishers/new-publisher-dialog';
import { PublishersTable } from '@/components/publishers/publishers-table';
import { Pagination } from '@/components/reports/pagination';
import { Card } from '@/components/ui/card';
import { isOperator } from '@/lib/access';
import { listPublisherAccounts, publishersQuery } from '@/lib/accounts';
import { requirePerson } from '@/lib/dashboard/session';
import { readView, type SearchParams } from '@/lib/dashboard/url';

export const metadata: Metadata = { title: 'Publishers · Publisher Portal' };

/** Admins: every publisher account, with invitations, deactivation and a way into each one's dashboard. */
export default async function PublishersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { principal } = await requirePerson();
  // Not "forbidden": to anyone whose role does not grant it, this page does not exist.
  if (!isOperator(principal)) notFound();
  const params = await searchParams;
  const read = readView(publishersQuery, params);
  // A hand-edited URL with a wrong page size shows the first page rather than an error.
  const input = read instanceof Error ? readView(publishersQuery, {}) : read;
  if (input instanceof Error) throw input;
  const { data, meta } = await listPublisherAccounts(principal, input);
  return (
    <>
      <PageHeader
        title="Publishers"
        description="Publisher accounts: invite a publisher by e-mail, shut an account out, or look at its dashboard."
      >
        <NewPublisherDialog />
      </PageHeader>
      <Card className="relative md:overflow-x-auto" tabIndex={0} role="region" aria-label="Publisher accounts">
        {data.length === 0 ? (
          <p className="p-10 text-center text-sm text-zinc-600 dark:text-zinc-400">
            No publisher accounts yet. Create one with “New publisher”.
          </p>
        ) : (
          <PublishersTable publishers={data} />
        )}
        {meta.totalRows > 0 && <Pagination searchParams={params} {...meta} />}
      </Card>
    </>
  );
}

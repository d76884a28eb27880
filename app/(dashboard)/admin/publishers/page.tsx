import type { Metadata } from 'next';
import { PageHeader } from '@/components/layout/page-header';
import { NewPublisherDialog } from '@/components/publishers/new-publisher-dialog';
import { PublishersTable } from '@/components/publishers/publishers-table';
import { Pagination } from '@/components/reports/pagination';
import { Card } from '@/components/ui/card';
import { loadPublishers } from '@/lib/dashboard/operator-pages';
import type { SearchParams } from '@/lib/dashboard/url';

export const metadata: Metadata = { title: 'Publishers · Publisher Portal' };

/** Admins: every publisher account, with invitations, deactivation and a way into each one's dashboard. */
export default async function PublishersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const { data, meta } = await loadPublishers(params);
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

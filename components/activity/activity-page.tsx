import { Download } from 'lucide-react';
import { ActivityFilters } from '@/components/activity/activity-filters';
import { ActivityTable } from '@/components/activity/activity-table';
import { PageHeader } from '@/components/layout/page-header';
import { Pagination } from '@/components/reports/pagination';
import { buttonClass } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import type { Principal } from '@/lib/access';
import { loadActivity } from '@/lib/dashboard/activity';
import { queryStringOf, type SearchParams } from '@/lib/dashboard/url';

/** The download of the log as the page shows it (the same filters), every page of it. */
const ACTIVITY_EXPORT_PATH = '/settings/activity/export';

/**
 * The activity log, for a publisher its own account's, for an operator every account's with an account filter.
 * Both read it through the service the API uses (lib/dashboard/activity.ts).
 */
export async function ActivityPage({
  principal,
  params,
  embedded = false,
}: {
  principal: Principal;
  params: SearchParams;
  /** Inside Settings, under its header and tabs: a section heading instead of the page's. */
  embedded?: boolean;
}) {
  const { operator, view, page, publishers } = await loadActivity(principal, params);
  const query = queryStringOf(params);
  const description = operator
    ? 'Every account’s security-relevant events: sign-ins, passwords, invitations, sites, keys and imports. Nothing here can be changed or removed.'
    : 'Who did what in your account, when and from where: sign-ins, passwords, sites and API keys. Nothing here can be changed or removed.';
  const download = (
    <a href={`${ACTIVITY_EXPORT_PATH}${query ? `?${query}` : ''}`} className={buttonClass('secondary')} download>
      <Download aria-hidden className="size-4" />
      Download CSV
    </a>
  );
  return (
    <>
      {embedded ? (
        <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 className="text-lg font-semibold">Activity</h2>
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</p>
          </div>
          {download}
        </div>
      ) : (
        <PageHeader title="Activity" description={description} actions={download} />
      )}
      <ActivityFilters view={view} publishers={publishers?.map((p) => ({ id: p.id, name: p.name }))} />
      <Card className="overflow-x-auto">
        {page.data.length > 0 ? (
          <ActivityTable
            events={page.data}
            accountName={publishers ? new Map(publishers.map((p) => [p.id, p.name])) : undefined}
          />
        ) : (
          <p className="px-4 py-10 text-center text-sm text-zinc-600 dark:text-zinc-400">
            No events match. Events appear here as they happen.
          </p>
        )}
      </Card>
      <Pagination
        searchParams={params}
        page={page.meta.page}
        pageSize={view.pageSize}
        totalRows={page.meta.totalRows}
        totalPages={page.meta.totalPages}
      />
    </>
  );
}

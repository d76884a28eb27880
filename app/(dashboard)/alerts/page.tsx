import type { Metadata } from 'next';
import { AlertsFilters } from '@/components/alerts/alerts-filters';
import { AlertsList } from '@/components/alerts/alerts-list';
import { PageHeader } from '@/components/layout/page-header';
import { ViewerFallback } from '@/components/layout/viewer-fallback';
import { Pagination } from '@/components/reports/pagination';
import { Card } from '@/components/ui/card';
import { loadAlerts } from '@/lib/dashboard/alerts';
import { requirePerson } from '@/lib/dashboard/session';
import type { SearchParams } from '@/lib/dashboard/url';
import { viewerOf } from '@/lib/dashboard/viewer';

export const metadata: Metadata = { title: 'Alerts · Publisher Portal' };

/**
 * What the portal noticed for the account: unusual revenue days, data that stopped, statements, payments, site
 * reviews, keys about to expire; open ones first by default, each acknowledged by anyone of the account.
 */
export default async function AlertsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const viewer = await viewerOf(await requirePerson(), params);
  if (viewer.kind !== 'ready') return <ViewerFallback viewer={viewer} title="Alerts" path="/alerts" params={params} />;
  const { principal, viewingAs } = viewer;
  const { view, page, kinds } = await loadAlerts(principal, params);
  return (
    <>
      <PageHeader
        title="Alerts"
        description={
          viewingAs
            ? `${viewingAs.name}’s alerts, read-only.`
            : 'What we noticed first: a day whose revenue left its usual range, a site whose data stopped, statements, payments, site reviews and keys about to expire.'
        }
      />
      <AlertsFilters view={view} kinds={kinds} />
      {page.data.length > 0 ? (
        <AlertsList alerts={page.data} params={params} readOnly={!!viewingAs} />
      ) : (
        <Card className="px-4 py-10 text-center text-sm text-zinc-600 dark:text-zinc-400">
          {view.show === 'open'
            ? 'Nothing needs your attention. New alerts appear here after each import and hourly checks.'
            : 'No alerts match.'}
        </Card>
      )}
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

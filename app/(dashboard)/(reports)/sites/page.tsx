import type { Metadata } from 'next';
import { Downloads } from '@/components/reports/downloads';
import { downloadsFor } from '@/lib/dashboard/downloads';
import { PageHeader } from '@/components/layout/page-header';
import { hasPages, Pagination } from '@/components/reports/pagination';
import { ReportFilterBar, ReportFilterProblem } from '@/components/reports/report-page';
import { SitesTable } from '@/components/reports/sites-table';
import { ViewerFallback } from '@/components/layout/viewer-fallback';
import { Card } from '@/components/ui/card';
import { OwnSites } from '@/components/sites/own-sites';
import { SiteAnnouncer } from '@/components/sites/announcer';
import { SiteDialog } from '@/components/sites/site-dialog';
import { can } from '@/lib/access';
import { FRAMEWORK_SUGGESTIONS, listOwnSites, siteHistories } from '@/lib/sites';
import { orFilterProblem } from '@/lib/dashboard/filters';
import { readReportPage } from '@/lib/dashboard/report-page';
import { loadSiteBreakdown, SITE_SORTS } from '@/lib/dashboard/sites';
import { listPage, paramOf, viewHref, type SearchParams } from '@/lib/dashboard/url';
import { AppError } from '@/lib/shared/errors';
import { formatDay, formatRange } from '@/lib/shared/format';

export const metadata: Metadata = { title: 'Sites · Publisher Portal' };

/**
 * Which site earns most: every site's revenue, change, eCPM, fill rate and trend for the chosen range; below,
 * each site's review status (with the reason when it was sent back) and history, and "Add site".
 */
export default async function SitesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const reading = await readReportPage(params);
  if (reading.kind !== 'ready') return <ViewerFallback viewer={reading} title="Sites" path="/sites" params={params} />;
  const { principal, today, compare } = reading;
  const { range, problem, sites, span } = reading.bar;
  const breakdown = problem ?? (await orFilterProblem(loadSiteBreakdown(principal, range, compare, today)));
  if (breakdown instanceof AppError) {
    return <ReportFilterProblem title="Sites" path="/sites" params={params} reading={reading} error={breakdown} />;
  }
  const sortBy = SITE_SORTS.find((s) => s === paramOf(params, 'sortBy')) ?? 'revenue';
  const descending = (paramOf(params, 'sortDirection') ?? (sortBy === 'name' ? 'asc' : 'desc')) !== 'asc';
  const rows = breakdown.rows.map((site) => ({ ...site, href: viewHref('/', params, { sites: site.siteId }) }));
  // An operator's view of a publisher, or a member whose role does not manage sites: the list without its buttons.
  const readOnly = !!principal.viewedBy || !can(principal, 'manageSites');
  // The review list is paged: a hundred sites' cards and histories made this page 600 KB.
  // The filter bar's sites are the same ones (the account's, narrowed to the member's or key's scope).
  const reviewPage = listPage(params, sites.length);
  const shownSites = await listOwnSites(principal, { limit: reviewPage.pageSize, offset: reviewPage.offset });
  const histories = await siteHistories(
    principal,
    shownSites.map((s) => s.siteId),
  );
  return (
    <SiteAnnouncer>
      <PageHeader
        title="Sites"
        description={[
          `${formatDay(range.fromDate)} – ${formatDay(range.toDate)} · UTC`,
          `${sites.length} site${sites.length === 1 ? '' : 's'} on this account`,
          breakdown.compared && `change vs ${formatRange(breakdown.compared.fromDate, breakdown.compared.toDate)}`,
        ]
          .filter(Boolean)
          .join(' · ')}
        updatedAt={span.updatedAt}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <Downloads reports={downloadsFor(principal, ['sites', 'daily', 'rows'])} />
            {!readOnly && <SiteDialog frameworks={FRAMEWORK_SUGGESTIONS} />}
          </div>
        }
      >
        <ReportFilterBar reading={reading} />
      </PageHeader>
      <Card className="md:overflow-x-auto">
        {rows.length === 0 ? (
          <p className="p-10 text-center text-sm text-zinc-600 dark:text-zinc-400">No sites on this account yet.</p>
        ) : (
          <SitesTable rows={rows} sortBy={sortBy} descending={descending} />
        )}
      </Card>
      <OwnSites
        sites={shownSites}
        histories={histories}
        frameworks={FRAMEWORK_SUGGESTIONS}
        readOnly={readOnly}
        pagination={
          hasPages(sites.length) && (
            <Card className="mt-3">
              <Pagination searchParams={params} {...reviewPage} />
            </Card>
          )
        }
      />
    </SiteAnnouncer>
  );
}

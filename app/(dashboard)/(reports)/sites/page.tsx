import type { Metadata } from 'next';
import { Downloads } from '@/components/reports/downloads';
import { downloadsFor } from '@/lib/dashboard/downloads';
import { PageHeader } from '@/components/layout/page-header';
import { hasPages, Pagination } from '@/components/reports/pagination';
import { ReportFilterBar, ReportFilterProblem } from '@/components/reports/report-page';
import { SitesTable } from '@/components/reports/sites-table';
import { ViewerFallback } from '@/components/layout/viewer-fallback';
import { Card } from '@/components/ui/card';
import { TabLinks } from '@/components/ui/tab-links';
import { OwnSites } from '@/components/sites/own-sites';
import { SiteAnnouncer } from '@/components/sites/announcer';
import { SiteDialog } from '@/components/sites/site-dialog';
import { can } from '@/lib/access';
import { FRAMEWORK_SUGGESTIONS, listOwnSites, siteHistories } from '@/lib/sites';
import { orFilterProblem } from '@/lib/dashboard/filters';
import { readReportPage, type ReportReading } from '@/lib/dashboard/report-page';
import { loadSiteBreakdown, SITE_SORTS, sortSiteRows } from '@/lib/dashboard/sites';
import { hrefWith, listPage, paramOf, viewHref, type SearchParams } from '@/lib/dashboard/url';
import { AppError } from '@/lib/shared/errors';
import { formatDay, formatRange } from '@/lib/shared/format';

export const metadata: Metadata = { title: 'Sites · Publisher Portal' };

/**
 * Which site earns most, and where each stands in review, as two tabs of one page: "Revenue" (every site's
 * revenue, change, eCPM, fill rate and trend for the chosen range, a page of the table at a time) and
 * "Review status" (`?view=review`: each site's status, the reason when it was sent back, its history). Apart,
 * each view reads and sends only its own: together, a hundred sites' table and cards made the page the
 * heaviest of the dashboard.
 */
export default async function SitesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const reading = await readReportPage(params);
  if (reading.kind !== 'ready') return <ViewerFallback viewer={reading} title="Sites" path="/sites" params={params} />;
  const reviewing = paramOf(params, 'view') === 'review';
  return reviewing ? (
    <ReviewView params={params} reading={reading} />
  ) : (
    <RevenueView params={params} reading={reading} />
  );
}

interface ViewProps {
  params: SearchParams;
  reading: ReportReading;
}

/** The tabs, each keeping the range and sites; a tab starts at its first page. */
function SitesTabs({ params, reviewing, pending }: { params: SearchParams; reviewing: boolean; pending: number }) {
  const fresh = { page: null, pageSize: null, sortBy: null, sortDirection: null };
  return (
    <TabLinks
      label="Sites views"
      tabs={[
        { href: `/sites${hrefWith(params, { ...fresh, view: null })}`, label: 'Revenue', current: !reviewing },
        {
          href: `/sites${hrefWith(params, { ...fresh, view: 'review' })}`,
          label: pending > 0 ? `Review status (${pending} pending)` : 'Review status',
          current: reviewing,
        },
      ]}
    />
  );
}

/** The page's header; the filter bar only on the Revenue tab, as the review does not depend on it. */
function SitesHeader(props: { reading: ReportReading; description: string; filters: boolean }) {
  const { reading, description, filters } = props;
  const { principal, bar } = reading;
  return (
    <PageHeader
      title="Sites"
      description={description}
      updatedAt={bar.span.updatedAt}
      actions={
        <div className="flex flex-wrap items-center gap-2">
          <Downloads reports={downloadsFor(principal, ['sites', 'daily', 'rows'])} />
          {!readOnly(reading) && <SiteDialog frameworks={FRAMEWORK_SUGGESTIONS} />}
        </div>
      }
    >
      {filters && <ReportFilterBar reading={reading} />}
    </PageHeader>
  );
}

// An operator's view of a publisher, or a member whose role does not manage sites: the lists without buttons.
const readOnly = ({ principal }: ReportReading) => !!principal.viewedBy || !can(principal, 'manageSites');
const pendingOf = ({ bar }: ReportReading) => bar.sites.filter((site) => site.status === 'pending').length;
const countOf = (n: number) => `${n} site${n === 1 ? '' : 's'} on this account`;

async function RevenueView({ params, reading }: ViewProps) {
  const { principal, today, compare } = reading;
  const { range, problem, sites } = reading.bar;
  const breakdown = problem ?? (await orFilterProblem(loadSiteBreakdown(principal, range, compare, today)));
  if (breakdown instanceof AppError) {
    return <ReportFilterProblem title="Sites" path="/sites" params={params} reading={reading} error={breakdown} />;
  }
  const sortBy = SITE_SORTS.find((s) => s === paramOf(params, 'sortBy')) ?? 'revenue';
  const descending = (paramOf(params, 'sortDirection') ?? (sortBy === 'name' ? 'asc' : 'desc')) !== 'asc';
  const paging = listPage(params, breakdown.rows.length);
  const rows = sortSiteRows(breakdown.rows, sortBy, descending)
    .slice(paging.offset, paging.offset + paging.pageSize)
    .map((site) => ({ ...site, href: viewHref('/', params, { sites: site.siteId }) }));
  const description = [
    `${formatDay(range.fromDate)} – ${formatDay(range.toDate)} · UTC`,
    countOf(sites.length),
    breakdown.compared && `change vs ${formatRange(breakdown.compared.fromDate, breakdown.compared.toDate)}`,
  ];
  return (
    <SiteAnnouncer>
      <SitesHeader reading={reading} description={description.filter(Boolean).join(' · ')} filters />
      <SitesTabs params={params} reviewing={false} pending={pendingOf(reading)} />
      <Card className="md:overflow-x-auto">
        {rows.length === 0 ? (
          <p className="p-10 text-center text-sm text-zinc-600 dark:text-zinc-400">
            {paging.totalRows === 0 ? 'No sites on this account yet.' : `Page ${paging.page} has no sites.`}
          </p>
        ) : (
          <SitesTable rows={rows} sortBy={sortBy} descending={descending} />
        )}
        {hasPages(paging.totalRows) && <Pagination searchParams={params} {...paging} />}
      </Card>
    </SiteAnnouncer>
  );
}

async function ReviewView({ params, reading }: ViewProps) {
  const { principal } = reading;
  // The filter bar's sites are the account's, narrowed to the member's or key's scope: the ones listed here.
  const { sites } = reading.bar;
  const reviewPage = listPage(params, sites.length);
  const shownSites = await listOwnSites(principal, { limit: reviewPage.pageSize, offset: reviewPage.offset });
  const histories = await siteHistories(
    principal,
    shownSites.map((s) => s.siteId),
  );
  const pending = pendingOf(reading);
  return (
    <SiteAnnouncer>
      <SitesHeader
        reading={reading}
        description={`${countOf(sites.length)} · ${pending} pending review`}
        filters={false}
      />
      <SitesTabs params={params} reviewing pending={pending} />
      <OwnSites
        sites={shownSites}
        histories={histories}
        frameworks={FRAMEWORK_SUGGESTIONS}
        readOnly={readOnly(reading)}
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

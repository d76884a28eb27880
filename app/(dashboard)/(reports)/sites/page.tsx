import type { Metadata } from 'next';
import { Downloads } from '@/components/reports/downloads';
import { FilterBar } from '@/components/reports/filter-bar';
import { FilterError } from '@/components/reports/filter-error';
import { PageHeader } from '@/components/layout/page-header';
import { SitesTable } from '@/components/reports/sites-table';
import { ViewerFallback } from '@/components/layout/viewer-fallback';
import { Card } from '@/components/ui/card';
import { requireUser } from '@/lib/dashboard/session';
import { readCompare } from '@/lib/dashboard/comparison';
import { orFilterProblem, readFilterBar } from '@/lib/dashboard/filters';
import { loadSiteBreakdown, SITE_SORTS } from '@/lib/dashboard/sites';
import { clearedViewHref, paramOf, viewHref, type SearchParams } from '@/lib/dashboard/url';
import { viewerOf } from '@/lib/dashboard/viewer';
import { AppError } from '@/lib/shared/errors';
import { formatDay, formatRange } from '@/lib/shared/format';
import { todayUtc } from '@/lib/query';

export const metadata: Metadata = { title: 'Sites · Publisher Portal' };

/** Which site earns most: every site's revenue, change, eCPM, fill rate and trend for the chosen range. */
export default async function SitesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const viewer = await viewerOf(await requireUser(), params);
  if (viewer.kind !== 'ready') return <ViewerFallback viewer={viewer} title="Sites" path="/sites" params={params} />;
  const { principal } = viewer;
  const { range, problem, sites, span } = await readFilterBar(principal, params);
  const today = todayUtc();
  const compare = readCompare(params);
  const breakdown = problem ?? (await orFilterProblem(loadSiteBreakdown(principal, range, compare, today)));
  const filterBar = (
    <FilterBar range={range} allSites={sites} firstDay={span.firstDay} today={today} compare={compare} />
  );
  if (breakdown instanceof AppError) {
    return (
      <>
        <PageHeader title="Sites">{filterBar}</PageHeader>
        <FilterError error={breakdown} resetHref={clearedViewHref('/sites', params)} />
      </>
    );
  }
  const sortBy = SITE_SORTS.find((s) => s === paramOf(params, 'sortBy')) ?? 'revenue';
  const descending = (paramOf(params, 'sortDirection') ?? (sortBy === 'name' ? 'asc' : 'desc')) !== 'asc';
  const rows = breakdown.rows.map((site) => ({ ...site, href: viewHref('/', params, { sites: site.siteId }) }));
  return (
    <>
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
        actions={<Downloads reports={['sites', 'daily', 'rows']} />}
      >
        {filterBar}
      </PageHeader>
      <Card className="md:overflow-x-auto">
        {rows.length === 0 ? (
          <p className="p-10 text-center text-sm text-zinc-600 dark:text-zinc-400">No sites on this account yet.</p>
        ) : (
          <SitesTable rows={rows} sortBy={sortBy} descending={descending} />
        )}
      </Card>
    </>
  );
}

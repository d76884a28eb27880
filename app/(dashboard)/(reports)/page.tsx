import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { LazyCountryBars } from '@/components/reports/charts/lazy-charts';
import { Downloads } from '@/components/reports/downloads';
import { downloadsFor } from '@/lib/dashboard/downloads';
import { KpiCards } from '@/components/reports/kpi-cards';
import { ReportFilterBar, ReportFilterProblem } from '@/components/reports/report-page';
import { PageHeader } from '@/components/layout/page-header';
import { TopCountriesTable } from '@/components/reports/top-countries-table';
import { TopSitesTable } from '@/components/reports/top-sites-table';
import { TrendCard } from '@/components/reports/trend-card';
import { ViewerFallback } from '@/components/layout/viewer-fallback';
import { Card, Skeleton } from '@/components/ui/card';
import { comparisonRange } from '@/lib/dashboard/comparison';
import { orFilterProblem } from '@/lib/dashboard/filters';
import { readReportPage } from '@/lib/dashboard/report-page';
import { loadHeadline, loadTrends, TOP_SITES } from '@/lib/dashboard/overview';
import { metricById, type Metric } from '@/lib/dashboard/metrics';
import { paramOf, viewHref, type SearchParams } from '@/lib/dashboard/url';
import { packDays } from '@/lib/dashboard/daily-series';
import { formatDay, formatRange } from '@/lib/shared/format';
import { AppError } from '@/lib/shared/errors';
import type { Principal } from '@/lib/access';
import type { ReportRange } from '@/lib/reports';

export const metadata: Metadata = { title: 'Overview · Publisher Portal' };

/**
 * The KPI cards come in the first HTML (they are the page's largest content and its point); the charts and
 * top countries stream in after them behind skeletons of their final size.
 */
export default async function OverviewPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const reading = await readReportPage(params);
  if (reading.kind !== 'ready') return <ViewerFallback viewer={reading} title="Overview" path="/" params={params} />;
  const { principal, today, compare, bar } = reading;
  const { range } = bar;
  const headline = bar.problem ?? (await orFilterProblem(loadHeadline(principal, range, compare, today)));
  if (headline instanceof AppError) {
    return <ReportFilterProblem title="Overview" path="/" params={params} reading={reading} error={headline} />;
  }
  return (
    <>
      <PageHeader
        title="Overview"
        description={`${formatDay(range.fromDate)} – ${formatDay(range.toDate)} · UTC`}
        updatedAt={bar.span.updatedAt}
        actions={<Downloads reports={downloadsFor(principal, ['daily', 'sites', 'countries', 'rows'])} />}
      >
        <ReportFilterBar reading={reading} />
      </PageHeader>
      <div className="space-y-6">
        <KpiCards totals={headline.totals} comparison={headline.comparison} />
        <Suspense fallback={<TrendsSkeleton metric={metricById(paramOf(params, 'metric'))} />}>
          <Trends
            principal={principal}
            range={range}
            compared={headline.comparison?.range ?? comparisonRange(range, compare)}
            today={today}
            params={params}
            hasData={headline.totals.totalRequests > 0}
            totalRevenue={headline.totals.totalRevenue}
          />
        </Suspense>
      </div>
    </>
  );
}

async function Trends(props: {
  principal: Principal;
  range: ReportRange;
  compared: ReportRange | null;
  today: string;
  params: SearchParams;
  hasData: boolean;
  totalRevenue: number;
}) {
  const { principal, range, compared, today, params, hasData, totalRevenue } = props;
  const trends = await loadTrends(principal, range, compared);
  const linkClass = 'text-sm font-medium text-accent-700 hover:underline dark:text-accent-300';
  const topSites = trends.siteFigures
    .slice(0, TOP_SITES)
    .map((site) => ({ ...site, href: viewHref('/', params, { sites: site.siteId }) }));
  return (
    <>
      <TrendCard
        daily={packDays(trends.daily)}
        previousDaily={packDays(trends.previousDaily)}
        comparedLabel={compared && formatRange(compared.fromDate, compared.toDate)}
        today={today}
        hasData={hasData}
        alerts={trends.alerts}
      />
      <div className="grid gap-6 xl:grid-cols-[2fr_3fr]">
        <Card className="p-4 md:p-6">
          <div className="mb-4 flex items-baseline justify-between gap-4">
            <h2 className="text-base font-semibold">Top sites</h2>
            <Link href={viewHref('/sites', params, { from: range.fromDate, to: range.toDate })} className={linkClass}>
              All {trends.siteFigures.length} {trends.siteFigures.length === 1 ? 'site' : 'sites'} →
            </Link>
          </div>
          <TopSitesTable rows={topSites} total={totalRevenue} />
        </Card>
        <Card className="p-4 md:p-6">
          <div className="mb-4 flex items-baseline justify-between gap-4">
            <h2 className="text-base font-semibold">Top countries</h2>
            <Link
              href={viewHref('/countries', params, { from: range.fromDate, to: range.toDate })}
              className={linkClass}
            >
              All {trends.countryCount} {trends.countryCount === 1 ? 'country' : 'countries'} →
            </Link>
          </div>
          {trends.topCountries.length > 0 ? (
            <div className="grid gap-6 lg:grid-cols-2">
              <LazyCountryBars rows={trends.topCountries} />
              <TopCountriesTable
                rows={trends.topCountries.map((row) => ({
                  ...row,
                  href: row.country && viewHref('/', params, { country: row.country }),
                }))}
              />
            </div>
          ) : (
            <p className="py-10 text-center text-sm text-zinc-600 dark:text-zinc-400">
              No countries to show for this period.
            </p>
          )}
        </Card>
      </div>
    </>
  );
}

/** The two cards below the KPIs at their usual size while their data loads. */
function TrendsSkeleton({ metric }: { metric: Metric }) {
  return (
    <div role="status" aria-label="Loading charts" className="space-y-6">
      <Card className="p-4 md:p-6">
        <h2 className="mb-4 text-base font-semibold">{metric.label} per day</h2>
        <Skeleton className="h-72 w-full" />
      </Card>
      <div className="grid gap-6 xl:grid-cols-[2fr_3fr]">
        <Card className="p-4 md:p-6">
          <h2 className="mb-4 text-base font-semibold">Top sites</h2>
          <Skeleton className="h-72 w-full" />
        </Card>
        <Card className="p-4 md:p-6">
          <h2 className="mb-4 text-base font-semibold">Top countries</h2>
          <Skeleton className="h-72 w-full" />
        </Card>
      </div>
    </div>
  );
}

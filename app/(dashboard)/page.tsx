import type { Metadata } from 'next';
import { CountryBars } from '@/components/charts/country-bars';
import { RevenueChart } from '@/components/charts/revenue-chart';
import { FilterBar } from '@/components/dashboard/filter-bar';
import { FilterError } from '@/components/dashboard/filter-error';
import { KpiCards } from '@/components/dashboard/kpi-cards';
import { PageHeader } from '@/components/dashboard/page-header';
import { TopCountriesTable } from '@/components/dashboard/top-countries-table';
import { Card } from '@/components/ui/card';
import { requireUser } from '@/lib/auth/session';
import { filterSearch, orFilterProblem, readFilters, type SearchParams } from '@/lib/dashboard/filters';
import { loadOverview } from '@/lib/dashboard/overview';
import { formatDay } from '@/lib/format';
import { ProblemError, ValidationError } from '@/lib/http/problem';
import { todayUtc } from '@/lib/query';

export const metadata: Metadata = { title: 'Overview · Publisher Portal' };

export default async function OverviewPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  const today = todayUtc();
  const filters = readFilters(await searchParams, today);
  const overview = filters instanceof ValidationError ? filters : await orFilterProblem(loadOverview(user, filters));
  if (filters instanceof ValidationError || overview instanceof ProblemError) {
    return (
      <>
        <PageHeader title="Overview" />
        <FilterError error={overview as ProblemError} resetHref="/" />
      </>
    );
  }
  const hasData = overview.totals.totalRequests > 0;
  return (
    <>
      <PageHeader
        title="Overview"
        description={`${formatDay(filters.from)} – ${formatDay(filters.to)} · UTC`}
      >
        <FilterBar {...filters} allSites={overview.sites} today={today} />
      </PageHeader>
      <div className="space-y-6">
        <KpiCards totals={overview.totals} previous={overview.previousTotals} />
        <Card className="p-4 md:p-6">
          <h2 className="mb-4 text-base font-semibold">Daily revenue</h2>
          {hasData ? (
            <RevenueChart daily={overview.daily} previousDaily={overview.previousDaily} />
          ) : (
            <p className="py-16 text-center text-sm text-zinc-600 dark:text-zinc-400">No revenue in this period for the selected sites.</p>
          )}
        </Card>
        <Card className="p-4 md:p-6">
          <div className="mb-4 flex items-baseline justify-between gap-4">
            <h2 className="text-base font-semibold">Top countries</h2>
            <a href={`/countries${filterSearch(filters)}`} className="text-sm font-medium text-accent-700 hover:underline dark:text-accent-300">
              All {overview.countryCount} countries →
            </a>
          </div>
          {overview.topCountries.length > 0 ? (
            <div className="grid gap-6 lg:grid-cols-2">
              <CountryBars rows={overview.topCountries} />
              <TopCountriesTable rows={overview.topCountries} />
            </div>
          ) : (
            <p className="py-10 text-center text-sm text-zinc-600 dark:text-zinc-400">No countries to show for this period.</p>
          )}
        </Card>
      </div>
    </>
  );
}

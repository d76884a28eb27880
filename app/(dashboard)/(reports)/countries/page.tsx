import type { Metadata } from 'next';
import { WorldMap } from '@/components/reports/charts/world-map';
import { CountriesTable } from '@/components/reports/countries-table';
import { Downloads } from '@/components/reports/downloads';
import { downloadsFor } from '@/lib/dashboard/downloads';
import { FilterError } from '@/components/reports/filter-error';
import { PageHeader } from '@/components/layout/page-header';
import { Pagination } from '@/components/reports/pagination';
import { ReportFilterBar, ReportFilterProblem } from '@/components/reports/report-page';
import { TableControls } from '@/components/reports/table-controls';
import { ViewerFallback } from '@/components/layout/viewer-fallback';
import { Card } from '@/components/ui/card';
import { loadCountryBreakdown, readCountriesView } from '@/lib/dashboard/countries';
import { orFilterProblem } from '@/lib/dashboard/filters';
import { readReportPage } from '@/lib/dashboard/report-page';
import { viewHref, type SearchParams } from '@/lib/dashboard/url';
import { formatDay, formatRange } from '@/lib/shared/format';
import { AppError, ValidationError } from '@/lib/shared/errors';

export const metadata: Metadata = { title: 'Countries · Publisher Portal' };

export default async function CountriesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const reading = await readReportPage(params);
  if (reading.kind !== 'ready') {
    return <ViewerFallback viewer={reading} title="Countries" path="/countries" params={params} />;
  }
  const { principal, today, compare } = reading;
  const { range, problem, span } = reading.bar;
  if (problem) {
    return (
      <ReportFilterProblem title="Countries" path="/countries" params={params} reading={reading} error={problem} />
    );
  }
  // The table's own parameters fail inside the card, beside controls that stay usable.
  const view = readCountriesView(params);
  const breakdown =
    view instanceof ValidationError
      ? view
      : await orFilterProblem(loadCountryBreakdown(principal, view, range, compare, today));
  const single = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : '');
  return (
    <>
      <PageHeader
        title="Countries"
        description={[
          `Revenue by country · ${formatDay(range.fromDate)} – ${formatDay(range.toDate)} · UTC`,
          !(breakdown instanceof AppError) &&
            breakdown.compared &&
            `change vs ${formatRange(breakdown.compared.fromDate, breakdown.compared.toDate)}`,
        ]
          .filter(Boolean)
          .join(' · ')}
        updatedAt={span.updatedAt}
        actions={<Downloads reports={downloadsFor(principal, ['countries', 'rows'])} />}
      >
        <ReportFilterBar reading={reading} />
      </PageHeader>
      {!(breakdown instanceof AppError) && breakdown.revenueByCountry.size > 0 && (
        <Card className="mb-6 p-4 md:p-6">
          <h2 className="mb-4 text-base font-semibold">Revenue by country</h2>
          <WorldMap revenueByCountry={breakdown.revenueByCountry} />
        </Card>
      )}
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3 border-b border-zinc-200 p-4 dark:border-zinc-800">
          <TableControls search={single('Search')} filter={single('Filter')} />
        </div>
        {breakdown instanceof AppError ? (
          <div className="p-4">
            <FilterError error={breakdown} resetHref={viewHref('/countries', params)} />
          </div>
        ) : breakdown.report.data.length === 0 ? (
          <p className="p-10 text-center text-sm text-zinc-600 dark:text-zinc-400">No countries match these filters.</p>
        ) : (
          <>
            <CountriesTable
              rows={breakdown.report.data.map((row) => ({
                ...row,
                href: row.country && viewHref('/', params, { country: row.country }),
              }))}
              sortBy={breakdown.report.meta.sortBy!}
              sortDirection={breakdown.report.meta.sortDirection}
            />
            <Pagination searchParams={params} {...breakdown.report.meta} />
          </>
        )}
      </Card>
    </>
  );
}

import { FilterBar } from './filter-bar';
import { FilterError } from './filter-error';
import { PageHeader } from '@/components/layout/page-header';
import type { AppError } from '@/lib/shared/errors';
import type { ReportReading } from '@/lib/dashboard/report-page';
import { clearedViewHref, type SearchParams } from '@/lib/dashboard/url';

/** A report page's filter bar: its range, sites, first day, today and comparison. */
export function ReportFilterBar({ reading: { bar, today, compare } }: { reading: ReportReading }) {
  return (
    <FilterBar
      range={bar.range}
      // Only what the picker shows: every field of every site would be sent to the browser with each page.
      allSites={bar.sites.map(({ siteId, name }) => ({ siteId, name }))}
      firstDay={bar.span.firstDay}
      today={today}
      compare={compare}
    />
  );
}

/** A report page whose filters cannot be shown: its title and filter bar, why, and a way back to its defaults. */
export function ReportFilterProblem(props: {
  title: string;
  path: string;
  params: SearchParams;
  reading: ReportReading;
  error: AppError;
}) {
  const { title, path, params, reading, error } = props;
  return (
    <>
      <PageHeader title={title}>
        <ReportFilterBar reading={reading} />
      </PageHeader>
      <FilterError error={error} resetHref={clearedViewHref(path, params)} />
    </>
  );
}

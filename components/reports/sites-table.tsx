'use client';

import {
  type ColumnDef,
  createPaginatedRowModel,
  rowPaginationFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
  createSortedRowModel,
  sortFns,
} from '@tanstack/react-table';
import Link from 'next/link';
import { useState } from 'react';
import { Sparkline } from '@/components/reports/charts/sparkline';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { buttonClass } from '@/components/ui/button';
import type { SiteSort, SiteTableRow } from '@/lib/dashboard/sites';
import { withChanges } from '@/lib/dashboard/url';
import { formatInt, formatPct, formatUsd, relativeChange } from '@/lib/shared/format';
import { PagerBar } from './pagination';
import { Change } from './change';
import { ReportTable, requestedSort } from './report-table';

export interface SiteRow extends SiteTableRow {
  /** The overview filtered to this site, with the range kept. */
  href: string;
}

const STATUS: Record<NonNullable<SiteRow['status']>, { tone: BadgeTone; label: string }> = {
  live: { tone: 'green', label: 'Live' },
  approved: { tone: 'blue', label: 'Approved' },
  pending: { tone: 'amber', label: 'Pending' },
};

const features = tableFeatures({
  rowSortingFeature,
  rowPaginationFeature,
  sortedRowModel: createSortedRowModel(),
  paginatedRowModel: createPaginatedRowModel(),
  sortFns,
});
/** Rows per page: a hundred sites' rows, each with its sparkline, made the page 600 KB. */
const PAGE_SIZE = 25;
const num = (format: (n: number) => string) => (info: { getValue: () => unknown }) => format(info.getValue() as number);
// "New" (no revenue before) sorts above every growth rate.
const changeOf = ({ change }: SiteRow) =>
  change ? (relativeChange(change.current, change.previous) ?? Number.POSITIVE_INFINITY) : 0;

const columns: ColumnDef<typeof features, SiteRow>[] = [
  {
    id: 'name',
    accessorFn: (row) => row.name ?? '',
    header: 'Site',
    cell: ({ row: { original: site } }) => (
      <div className="min-w-0">
        <Link href={site.href} className="font-medium text-accent-700 hover:underline dark:text-accent-300">
          {site.name ?? 'Untitled site'}
        </Link>
        <p className="flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
          {site.status && <Badge tone={STATUS[site.status].tone}>{STATUS[site.status].label}</Badge>}
          {site.url && <span className="truncate">{site.url.replace(/^https?:\/\//, '')}</span>}
        </p>
      </div>
    ),
  },
  {
    accessorKey: 'revenue',
    header: 'Revenue',
    // The exact figure for tests and tools, beside the rounded one people read.
    cell: (info) => <span data-value={info.getValue() as number}>{formatUsd(info.getValue() as number)}</span>,
    meta: { numeric: true },
  },
  {
    id: 'change',
    accessorFn: changeOf,
    header: 'Change',
    cell: ({ row: { original: site } }) =>
      site.change ? <Change current={site.change.current} previous={site.change.previous} /> : '—',
    meta: { numeric: true },
  },
  { accessorKey: 'impressions', header: 'Impressions', cell: num(formatInt), meta: { numeric: true } },
  { accessorKey: 'cpm', header: 'eCPM', cell: num(formatUsd), meta: { numeric: true } },
  { accessorKey: 'fillRate', header: 'Fill rate', cell: num(formatPct), meta: { numeric: true } },
  {
    id: 'trend',
    header: 'Trend',
    enableSorting: false,
    cell: ({ row: { original: site } }) => (
      <Sparkline values={site.series} label={`Daily revenue of ${site.name ?? 'this site'}`} />
    ),
    meta: { numeric: true },
  },
];

/**
 * Every site's money for the range, sorted in the browser (an account has at most a few hundred sites) and
 * shown 25 at a time; the sort is written into the URL without a reload, so a shared link opens sorted the
 * same way. A new sort starts again at the first page.
 */
export function SitesTable({ rows, sortBy, descending }: { rows: SiteRow[]; sortBy: SiteSort; descending: boolean }) {
  const [sorting, setSorting] = useState<SortingState>([{ id: sortBy, desc: descending }]);
  const [pagination, setPagination] = useState({ pageIndex: 0, pageSize: PAGE_SIZE });
  const table = useTable({
    features,
    columns,
    data: rows,
    enableSortingRemoval: false,
    state: { sorting, pagination },
    onPaginationChange: (updater) => setPagination(typeof updater === 'function' ? updater(pagination) : updater),
    onSortingChange: (updater) => {
      const sort = requestedSort(updater, sorting);
      if (!sort) return;
      setSorting(sort.sorting);
      setPagination({ ...pagination, pageIndex: 0 });
      window.history.replaceState(null, '', `?${withChanges(window.location.search, sort.params)}`);
    },
  });

  const first = pagination.pageIndex * PAGE_SIZE;
  return (
    <>
      <ReportTable
        table={table}
        caption="Revenue by site; column headers sort the table"
        className="stack-table w-full text-sm md:min-w-[52rem]"
        rowKey={(row) => row.original.siteId}
        rowTestId="site-row"
      />
      {rows.length > PAGE_SIZE && (
        <PagerBar
          label="Pages of sites"
          first={first + 1}
          last={Math.min(rows.length, first + PAGE_SIZE)}
          total={rows.length}
        >
          <div className="flex items-center gap-2">
            {[
              { label: 'Previous', enabled: table.getCanPreviousPage(), go: () => table.previousPage() },
              { label: 'Next', enabled: table.getCanNextPage(), go: () => table.nextPage() },
            ].map(({ label, enabled, go }) => (
              <button key={label} type="button" className={buttonClass('secondary')} disabled={!enabled} onClick={go}>
                {label}
              </button>
            ))}
          </div>
        </PagerBar>
      )}
    </>
  );
}

'use client';

import { type ColumnDef, rowSortingFeature, type SortingState, tableFeatures, useTable } from '@tanstack/react-table';
import Link from 'next/link';
import { Sparkline } from '@/components/reports/charts/sparkline';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import type { SiteSort, SiteTableRow } from '@/lib/dashboard/sites';
import { formatInt, formatPct, formatUsd } from '@/lib/shared/format';
import { Change } from './change';
import { ReportTable, useUrlSorting } from './report-table';

export interface SiteRow extends SiteTableRow {
  /** The overview filtered to this site, with the range kept. */
  href: string;
}

const STATUS: Record<NonNullable<SiteRow['status']>, { tone: BadgeTone; label: string }> = {
  live: { tone: 'green', label: 'Live' },
  approved: { tone: 'blue', label: 'Approved' },
  pending: { tone: 'amber', label: 'Pending' },
};

const features = tableFeatures({ rowSortingFeature });
const num = (format: (n: number) => string) => (info: { getValue: () => unknown }) => format(info.getValue() as number);

const columns: ColumnDef<typeof features, SiteRow>[] = [
  {
    id: 'name',
    accessorFn: (row) => row.name ?? '',
    header: 'Site',
    sortDescFirst: false,
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
    // Sorted on the server (sortSiteRows); a column sorts only with an accessor.
    accessorFn: (row) => row.change,
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
 * One page of the sites' money for the range. Sorting and paging are server-side (lib/dashboard/sites.ts): a
 * header click changes `sortBy`/`sortDirection` in the URL, back to the first page, and the server renders
 * the new page, so a shared link opens sorted the same way and the browser receives only the rows it shows.
 */
export function SitesTable({ rows, sortBy, descending }: { rows: SiteRow[]; sortBy: SiteSort; descending: boolean }) {
  const sorting: SortingState = [{ id: sortBy, desc: descending }];
  const { pending, onSortingChange } = useUrlSorting(sorting);
  const table = useTable({
    features,
    columns,
    data: rows,
    manualSorting: true,
    enableSortingRemoval: false,
    sortDescFirst: true,
    state: { sorting },
    onSortingChange,
  });
  return (
    <ReportTable
      table={table}
      caption="Revenue by site; column headers sort the table"
      className="stack-table w-full text-sm md:min-w-[52rem]"
      busy={pending}
      rowKey={(row) => row.original.siteId}
      rowTestId="site-row"
    />
  );
}

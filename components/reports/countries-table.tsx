'use client';

import { rowSortingFeature, tableFeatures, useTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import Link from 'next/link';
import { countryName } from '@/lib/shared/countries';
import type { ByCountryRow } from '@/lib/dashboard/countries';
import { BY_COUNTRY_FIELD, METRICS, metricsOfByCountry } from '@/lib/dashboard/metrics';
import { Change } from './change';
import { ReportTable, useUrlSorting } from './report-table';

const features = tableFeatures({ rowSortingFeature });

export interface ByCountryTableRow extends ByCountryRow {
  /** The whole dashboard narrowed to this country, the range and sites kept. */
  href: string | null;
}

const columns: ColumnDef<typeof features, ByCountryTableRow>[] = [
  {
    accessorKey: 'country',
    header: 'Country',
    cell: ({ row: { original: row } }) => {
      if (!row.country || !row.href) return 'Unknown';
      const name = countryName(row.country) ?? row.country;
      return (
        <Link href={row.href} className="font-medium text-accent-700 hover:underline dark:text-accent-300">
          {name} <span className="text-xs font-normal text-zinc-600 dark:text-zinc-400">{row.country}</span>
        </Link>
      );
    },
  },
  // One column per metric, sorted by the API's own field, with its change against the comparison below it.
  ...METRICS.map((metric): ColumnDef<typeof features, ByCountryTableRow> => ({
    id: BY_COUNTRY_FIELD[metric.id],
    accessorFn: (row) => metricsOfByCountry(row)[metric.id],
    header: metric.label,
    cell: ({ row: { original: row } }) => {
      const value = metricsOfByCountry(row)[metric.id];
      return (
        <span className="figure-and-change">
          <span data-value={value}>{metric.format(value)}</span>
          {row.change && <Change current={row.change.current[metric.id]} previous={row.change.previous[metric.id]} />}
        </span>
      );
    },
    meta: { numeric: true },
  })),
];

/**
 * The by-country rows of one page. Sorting is server-side: a header click changes `sortBy`/`sortDirection`
 * in the URL (the API's own parameters) and the server renders the new page. Each country's name narrows the
 * whole dashboard to it. On a phone the rows stack (`stack-table`, app/globals.css).
 */
export function CountriesTable({
  rows,
  sortBy,
  sortDirection,
}: {
  rows: ByCountryTableRow[];
  sortBy: string;
  sortDirection: 'asc' | 'desc';
}) {
  const sorting: SortingState = [{ id: sortBy, desc: sortDirection === 'desc' }];
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
      caption="Revenue by country; column headers sort the table"
      className="stack-table w-full text-sm"
      busy={pending}
      rowKey={(row) => row.id}
      rowTestId="by-country-row"
      rowClassName="hover:bg-zinc-50 dark:hover:bg-zinc-800/40"
    />
  );
}

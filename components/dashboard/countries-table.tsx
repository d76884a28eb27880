'use client';

import { rowSortingFeature, tableFeatures, useTable, type ColumnDef, type SortingState } from '@tanstack/react-table';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useTransition } from 'react';
import { countryName } from '@/lib/countries';
import { withChanges } from '@/lib/dashboard/url';
import { formatInt, formatPct, formatUsd } from '@/lib/format';
import type { RevenueByCountryResponse } from '@/lib/services/reports';
import { SortableHeaderCell } from './sortable-header';

const features = tableFeatures({ rowSortingFeature });

const num = (format: (n: number) => string) => (info: { getValue: () => unknown }) => format(info.getValue() as number);

const columns: ColumnDef<typeof features, RevenueByCountryResponse>[] = [
  {
    accessorKey: 'country',
    header: 'Country',
    cell: (info) => {
      const code = info.getValue() as string | null;
      return code ? (
        <span>
          {countryName(code) ?? code} <span className="text-xs text-zinc-600 dark:text-zinc-400">{code}</span>
        </span>
      ) : (
        'Unknown'
      );
    },
  },
  { accessorKey: 'revenueAmount', header: 'Revenue', cell: num(formatUsd), meta: { numeric: true } },
  { accessorKey: 'cpm', header: 'eCPM', cell: num(formatUsd), meta: { numeric: true } },
  { accessorKey: 'impressions', header: 'Impressions', cell: num(formatInt), meta: { numeric: true } },
  { accessorKey: 'adRequests', header: 'Ad requests', cell: num(formatInt), meta: { numeric: true } },
  { accessorKey: 'fillRate', header: 'Fill rate', cell: num(formatPct), meta: { numeric: true } },
];

/**
 * The by-country rows of one page. Sorting is server-side: a header click changes `sortBy`/`sortDirection`
 * in the URL (the API's own parameters) and the server renders the new page.
 */
export function CountriesTable({
  rows,
  sortBy,
  sortDirection,
}: {
  rows: RevenueByCountryResponse[];
  sortBy: string | null;
  sortDirection: 'asc' | 'desc';
}) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();
  const sorting: SortingState = sortBy ? [{ id: sortBy, desc: sortDirection === 'desc' }] : [];

  const table = useTable({
    features,
    columns,
    data: rows,
    manualSorting: true,
    enableSortingRemoval: false,
    sortDescFirst: true,
    state: { sorting },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      if (!next[0]) return;
      const params = withChanges(searchParams.toString(), {
        sortBy: next[0].id,
        sortDirection: next[0].desc ? 'desc' : 'asc',
        page: null,
      });
      startTransition(() => router.push(`${pathname}?${params}`, { scroll: false }));
    },
  });

  return (
    <div className="relative max-h-[70vh] overflow-auto" aria-busy={pending}>
      <table className="w-full min-w-[44rem] text-sm">
        <caption className="sr-only">Revenue by country; column headers sort the table</caption>
        <thead className="sticky top-0 z-10 bg-zinc-50 text-xs text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const numeric = (header.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric;
                return (
                  <SortableHeaderCell
                    key={header.id}
                    sorted={sorted}
                    numeric={!!numeric}
                    onToggle={header.column.getToggleSortingHandler()}
                  >
                    <table.FlexRender header={header} />
                  </SortableHeaderCell>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} data-testid="country-row">
              {row.getAllCells().map((cell) => (
                <td
                  key={cell.id}
                  className={`px-4 py-2.5 ${(cell.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric ? 'text-right' : ''}`}
                >
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

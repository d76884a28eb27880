/**
 * The parts the report tables (Sites, Countries) share: the table's markup, column headers that sort, cells
 * of figures, and the sort a header click asks for.
 */
import type { ReactTable, Row, RowData, SortingState, TableFeatures, Updater } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { type ReactNode, useTransition } from 'react';
import { withChanges } from '@/lib/dashboard/url';

/**
 * A column header that sorts its table: a button with the direction as an arrow, and `aria-sort` so the
 * order is announced. Numeric columns align right, their arrow before the name.
 */
function SortableHeaderCell(props: {
  sorted: false | 'asc' | 'desc';
  numeric: boolean;
  onToggle: ((event: unknown) => void) | undefined;
  children: ReactNode;
}) {
  const { sorted, numeric, onToggle, children } = props;
  const Icon = sorted === 'asc' ? ArrowUp : sorted === 'desc' ? ArrowDown : ChevronsUpDown;
  return (
    <th
      scope="col"
      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}
      className={`px-4 py-3 font-medium ${numeric ? 'text-right' : 'text-left'}`}
    >
      <button
        type="button"
        onClick={onToggle}
        className={`inline-flex items-center gap-1 rounded hover:text-zinc-900 dark:hover:text-zinc-100 ${numeric ? 'flex-row-reverse' : ''}`}
      >
        {children}
        <Icon aria-hidden className={`size-3.5 ${sorted ? '' : 'opacity-50'}`} />
      </button>
    </th>
  );
}

/** What the report tables use of a TanStack column; structural, so a column of any row type fits. */
interface ReportColumn {
  columnDef: { meta?: unknown; header?: unknown };
  /** What the row sorting feature adds (both report tables have it); a column without it does not sort. */
  getCanSort?(): boolean;
  getIsSorted?(): false | 'asc' | 'desc';
  getToggleSortingHandler?(): ((event: unknown) => void) | undefined;
}

const sorts = (column: ReportColumn): column is Required<ReportColumn> => column.getCanSort?.() === true;

/** Columns with `meta: { numeric: true }` align right and, stacked on a phone, label their value. */
const isNumeric = (column: ReportColumn) =>
  (column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric === true;

/** A report table's column header: a sort button, or the plain name for a column that does not sort. */
function ColumnHeader({ column, children }: { column: ReportColumn; children: ReactNode }) {
  const numeric = isNumeric(column);
  if (!sorts(column)) {
    return (
      <th scope="col" data-unsortable className={`px-4 py-3 font-medium ${numeric ? 'text-right' : 'text-left'}`}>
        {children}
      </th>
    );
  }
  return (
    <SortableHeaderCell sorted={column.getIsSorted()} numeric={numeric} onToggle={column.getToggleSortingHandler()}>
      {children}
    </SortableHeaderCell>
  );
}

/** A report table's cell: figures right-aligned on one line, labelled by their header when rows stack. */
function cellProps(column: ReportColumn) {
  const numeric = isNumeric(column);
  return {
    'data-label': numeric ? String(column.columnDef.header) : undefined,
    className: `px-4 py-2.5 ${numeric ? 'text-right whitespace-nowrap' : ''}`,
  };
}

/**
 * Sorting on the server, for a table whose `sorting` comes from the URL: a header click writes the new first
 * column to `sortBy`/`sortDirection`, back to the first page, and the server renders it; `pending` meanwhile.
 */
export function useUrlSorting(sorting: SortingState) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();
  const onSortingChange = (updater: Updater<SortingState>) => {
    const first = (typeof updater === 'function' ? updater(sorting) : updater)[0];
    if (!first) return;
    const params = withChanges(searchParams.toString(), {
      sortBy: first.id,
      sortDirection: first.desc ? 'desc' : 'asc',
      page: null,
    });
    startTransition(() => router.push(`${pathname}?${params}`, { scroll: false }));
  };
  return { pending, onSortingChange };
}

/**
 * A report table: its caption for screen readers, a header row of sort buttons, and its rows, which stack on a
 * phone (`stack-table`, app/globals.css) with each figure labelled by its header.
 */
export function ReportTable<TFeatures extends TableFeatures, TRow extends RowData>(props: {
  table: ReactTable<TFeatures, TRow>;
  caption: string;
  className: string;
  /** While a new sort loads (`aria-busy`). */
  busy?: boolean;
  rowKey: (row: Row<TFeatures, TRow>) => string;
  /** Each row's `data-testid`. */
  rowTestId: string;
  rowClassName?: string;
}) {
  const { table, caption, className, busy, rowKey, rowTestId, rowClassName } = props;
  return (
    <table className={className} aria-busy={busy}>
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-zinc-50 text-xs text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => (
              <ColumnHeader key={header.id} column={header.column}>
                <table.FlexRender header={header} />
              </ColumnHeader>
            ))}
          </tr>
        ))}
      </thead>
      <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {table.getRowModel().rows.map((row) => (
          <tr key={rowKey(row)} data-testid={rowTestId} className={rowClassName}>
            {row.getAllCells().map((cell) => (
              <td key={cell.id} {...cellProps(cell.column)}>
                <table.FlexRender cell={cell} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

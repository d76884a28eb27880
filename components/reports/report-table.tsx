/** The parts the report tables (Sites, Countries) share: column headers that sort, and cells of figures. */
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import type { ReactNode } from 'react';

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
  getIsSorted(): false | 'asc' | 'desc';
  getCanSort(): boolean;
  getToggleSortingHandler(): ((event: unknown) => void) | undefined;
}

/** Columns with `meta: { numeric: true }` align right and, stacked on a phone, label their value. */
const isNumeric = (column: ReportColumn) =>
  (column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric === true;

/** A report table's column header: a sort button, or the plain name for a column that does not sort. */
export function ColumnHeader({ column, children }: { column: ReportColumn; children: ReactNode }) {
  const numeric = isNumeric(column);
  if (!column.getCanSort()) {
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
export function cellProps(column: ReportColumn) {
  const numeric = isNumeric(column);
  return {
    'data-label': numeric ? String(column.columnDef.header) : undefined,
    className: `px-4 py-2.5 ${numeric ? 'text-right whitespace-nowrap' : ''}`,
  };
}

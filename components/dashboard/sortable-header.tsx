import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * A column header that sorts its table: a button with the direction as an arrow, and `aria-sort` so the
 * order is announced. Numeric columns align right, their arrow before the name.
 */
export function SortableHeaderCell(props: {
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

import Link from 'next/link';
import type { Key, ReactNode } from 'react';

/** A column of an overview top table: the first names the row, the others hold figures, right-aligned. */
export interface TopColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** The exact figure behind the rounded one people read, for tests and tools (`data-value`). */
  value?: (row: Row) => number;
}

/** The overview's short tables of its top rows (sites, countries): a caption for screen readers, no sorting. */
export function TopTable<Row>(props: {
  caption: string;
  columns: readonly TopColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key | null;
}) {
  const { caption, columns, rows, rowKey } = props;
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-zinc-200 text-left text-xs text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
          {columns.map((column, i) => (
            <th
              key={column.header}
              scope="col"
              className={i === 0 ? 'py-2 font-medium' : 'py-2 text-right font-medium'}
            >
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} className="border-b border-zinc-100 last:border-0 dark:border-zinc-800/60">
            {columns.map((column, i) => (
              <td key={column.header} className={i === 0 ? 'py-2' : 'py-2 text-right'} data-value={column.value?.(row)}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A top row's name, linking to the dashboard narrowed to it. */
export function TopRowLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="font-medium text-accent-700 hover:underline dark:text-accent-300">
      {children}
    </Link>
  );
}

import Link from 'next/link';
import type { ReactNode } from 'react';
import { buttonClass } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { hrefWith } from '@/lib/dashboard/url';
import { formatInt } from '@/lib/shared/format';

const SIZES = [20, 50, 100];

/** Whether a list needs its pager: more rows than the smallest page holds, whatever page size was picked. */
export const hasPages = (totalRows: number) => totalRows > SIZES[0];

/** A list's pager: which rows are shown ("21–40 of 95") and its controls. */
function PagerBar(props: { label: string; first: number; last: number; total: number; children: ReactNode }) {
  const { label, first, last, total, children } = props;
  return (
    <nav
      aria-label={label}
      className="flex flex-wrap items-center justify-between gap-3 border-t border-zinc-200 px-4 py-3 text-sm dark:border-zinc-800"
    >
      <p className="text-zinc-700 dark:text-zinc-300">
        {formatInt(first)}–{formatInt(last)} of {formatInt(total)}
      </p>
      {children}
    </nav>
  );
}

/** Server-rendered paging: plain links that change `page`/`pageSize` in the URL. */
export function Pagination({
  searchParams,
  page,
  pageSize,
  totalRows,
  totalPages,
}: {
  searchParams: Record<string, string | string[] | undefined>;
  page: number;
  pageSize: number;
  totalRows: number;
  totalPages: number;
}) {
  const href = (changes: Record<string, number>) =>
    hrefWith(searchParams, Object.fromEntries(Object.entries(changes).map(([name, n]) => [name, String(n)])));
  const first = totalRows === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(totalRows, page * pageSize);
  const disabled = 'pointer-events-none opacity-50';
  return (
    <PagerBar label="Pages" first={first} last={last} total={totalRows}>
      <div className="flex items-center gap-2">
        <span className="text-zinc-700 dark:text-zinc-300">Rows per page</span>
        {SIZES.map((size) => (
          <Link
            key={size}
            href={href({ pageSize: size, page: 1 })}
            aria-current={size === pageSize ? 'true' : undefined}
            className={cn(buttonClass(size === pageSize ? 'primary' : 'ghost'), 'px-2.5 py-1')}
          >
            {size}
          </Link>
        ))}
      </div>
      <div className="flex items-center gap-2">
        <Link
          href={href({ page: page - 1 })}
          aria-disabled={page <= 1}
          tabIndex={page <= 1 ? -1 : undefined}
          className={cn(buttonClass('secondary'), page <= 1 && disabled)}
        >
          Previous
        </Link>
        <span className="text-zinc-700 dark:text-zinc-300">
          Page {page} of {Math.max(1, totalPages)}
        </span>
        <Link
          href={href({ page: page + 1 })}
          aria-disabled={page >= totalPages}
          tabIndex={page >= totalPages ? -1 : undefined}
          className={cn(buttonClass('secondary'), page >= totalPages && disabled)}
        >
          Next
        </Link>
      </div>
    </PagerBar>
  );
}

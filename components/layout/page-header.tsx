import type { ReactNode } from 'react';
import { formatAgo } from '@/lib/shared/format';

/**
 * A page's title, what it shows (`description`) and its controls; with `updatedAt`, when the account's figures
 * last changed, so a publisher knows how fresh today's numbers are.
 */
export function PageHeader({
  title,
  description,
  updatedAt,
  actions,
  children,
}: {
  title: string;
  description?: ReactNode;
  updatedAt?: Date | null;
  /** Beside the title: the page's downloads. */
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0 flex-1 basis-full">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          {actions}
        </div>
        {description && <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</p>}
        {updatedAt && (
          <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400" data-testid="data-updated">
            Data updated{' '}
            <time
              dateTime={updatedAt.toISOString()}
              title={`${updatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`}
            >
              {formatAgo(updatedAt, new Date())}
            </time>
          </p>
        )}
      </div>
      {children}
    </div>
  );
}

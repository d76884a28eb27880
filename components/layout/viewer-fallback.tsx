import { ChevronRight } from 'lucide-react';
import Link from 'next/link';
import { FilterError } from '@/components/reports/filter-error';
import { PageHeader } from '@/components/layout/page-header';
import { Card } from '@/components/ui/card';
import { viewHref, type SearchParams } from '@/lib/dashboard/url';
import type { Viewer } from '@/lib/dashboard/viewer';

/**
 * A report page that has no one's figures to show: an admin chooses whose dashboard to open (read-only), or
 * `?as=` names no publisher the visitor may view.
 */
export function ViewerFallback({
  viewer,
  title,
  path,
  params,
}: {
  viewer: Exclude<Viewer, { kind: 'ready' }>;
  title: string;
  path: string;
  params: SearchParams;
}) {
  if (viewer.kind === 'refused') {
    return (
      <>
        <PageHeader title={title} />
        <FilterError
          error={viewer.error}
          resetHref={path}
          title="This dashboard can’t be shown"
          resetLabel="Back to the dashboard"
        />
      </>
    );
  }
  return (
    <>
      <PageHeader
        title={title}
        description="You are signed in as an admin. Choose a publisher to see their dashboard, read-only."
      />
      <Card className="max-w-2xl">
        <h2 className="border-b border-zinc-200 px-4 py-3 text-base font-semibold dark:border-zinc-800">Publishers</h2>
        {viewer.publishers.length === 0 ? (
          <p className="p-6 text-sm text-zinc-600 dark:text-zinc-400">There are no publisher accounts yet.</p>
        ) : (
          <ul className="divide-y divide-zinc-100 dark:divide-zinc-800" aria-label="Publishers">
            {viewer.publishers.map((publisher) => (
              <li key={publisher.id}>
                <Link
                  href={viewHref(path, params, { as: publisher.id, sites: null })}
                  className="flex items-center gap-3 px-4 py-3 hover:bg-zinc-50 dark:hover:bg-zinc-800/60"
                >
                  <span className="min-w-0 flex-1">
                    <span className="block font-medium">{publisher.name}</span>
                    <span className="block truncate text-sm text-zinc-600 dark:text-zinc-400">{publisher.email}</span>
                  </span>
                  <ChevronRight aria-hidden className="size-4 text-zinc-500" />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}

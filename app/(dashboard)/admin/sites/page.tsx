import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/layout/page-header';
import { ReviewQueue } from '@/components/sites/review-queue';
import { SiteAnnouncer } from '@/components/sites/announcer';
import { SiteDialog } from '@/components/sites/site-dialog';
import { Card } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import {
  allowedTransitions,
  FRAMEWORK_SUGGESTIONS,
  listSitesForReview,
  REVIEW_PAGE_SIZE,
  SITE_STATUSES,
  siteHistories,
} from '@/lib/sites';
import { isOperator } from '@/lib/access';
import { listPublishers } from '@/lib/accounts';
import { requirePerson } from '@/lib/dashboard/session';
import { paramOf, type SearchParams } from '@/lib/dashboard/url';

export const metadata: Metadata = { title: 'Site review · Publisher Portal' };

const TABS = [
  { status: null, label: 'All' },
  ...SITE_STATUSES.map((s) => ({ status: s, label: s[0].toUpperCase() + s.slice(1) })),
];

const hrefOf = (status: string | null, page = 1) => {
  const query = new URLSearchParams({ ...(status ? { status } : {}), ...(page > 1 ? { page: String(page) } : {}) });
  return `/admin/sites${query.size > 0 ? `?${query}` : ''}`;
};

/** Admins: every publisher's sites, pending first, with the review's actions and each site's history. */
export default async function SiteReviewPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const { principal } = await requirePerson();
  if (!isOperator(principal)) notFound();
  const status = SITE_STATUSES.find((s) => s === paramOf(params, 'status')?.toLowerCase()) ?? null;
  const page = Math.max(1, Math.min(Number.parseInt(paramOf(params, 'page') ?? '1', 10) || 1, 1_000_000));
  const [{ sites, total }, publishers] = await Promise.all([
    listSitesForReview(principal, { status: status ?? undefined, page }),
    listPublishers(principal),
  ]);
  const histories = await siteHistories(
    principal,
    sites.map((s) => s.siteId),
  );
  const queue = sites.map((site) => ({
    ...site,
    moves: allowedTransitions(site.status ?? 'pending').filter((to) => to !== 'pending'),
    history: histories.get(site.siteId) ?? [],
  }));
  const pages = Math.max(1, Math.ceil(total / REVIEW_PAGE_SIZE));
  return (
    <SiteAnnouncer>
      <PageHeader
        title="Site review"
        description={`${total} site${total === 1 ? '' : 's'}${status ? ` ${status}` : ''} · pending first, oldest first`}
        actions={
          <SiteDialog
            frameworks={FRAMEWORK_SUGGESTIONS}
            publishers={publishers.map((p) => ({ id: p.id, name: `${p.name} (${p.email})` }))}
          />
        }
      >
        <nav aria-label="Filter by status" className="flex flex-wrap gap-1">
          {TABS.map((tab) => (
            <Link
              key={tab.label}
              href={hrefOf(tab.status)}
              aria-current={tab.status === status ? 'page' : undefined}
              className={cn(
                'rounded-md px-3 py-1.5 text-sm font-medium',
                tab.status === status
                  ? 'bg-accent-50 text-accent-700 dark:bg-accent-500/15 dark:text-accent-300'
                  : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
              )}
            >
              {tab.label}
            </Link>
          ))}
        </nav>
      </PageHeader>
      {queue.length === 0 ? (
        <Card>
          <p className="p-10 text-center text-sm text-zinc-600 dark:text-zinc-400">
            {status === 'pending' ? 'Nothing waits for review.' : 'No sites here.'}
          </p>
        </Card>
      ) : (
        <ReviewQueue sites={queue} frameworks={FRAMEWORK_SUGGESTIONS} />
      )}
      {pages > 1 && (
        <nav aria-label="Pages" className="mt-4 flex items-center justify-between text-sm">
          {page > 1 ? <Link href={hrefOf(status, page - 1)}>← Previous</Link> : <span />}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages ? <Link href={hrefOf(status, page + 1)}>Next →</Link> : <span />}
        </nav>
      )}
    </SiteAnnouncer>
  );
}

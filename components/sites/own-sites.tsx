import type { ReactNode } from 'react';
import type { ReviewedSite, SiteHistoryEntry } from '@/lib/sites';
import { Card } from '@/components/ui/card';
import { DeleteSiteButton } from './delete-site-button';
import { SiteDialog } from './site-dialog';
import { SiteHistory } from './site-history';
import { SiteStatusBadge } from './status-badge';

/**
 * The account's sites and where each stands in review: its status, the reason when an admin sent it back, its
 * history; while it is pending, the publisher may edit it; without revenue, delete it. Read-only when an
 * admin views the publisher's dashboard.
 */
export function OwnSites({
  sites,
  histories,
  frameworks,
  readOnly,
  pagination,
}: {
  sites: ReviewedSite[];
  histories: Map<string, SiteHistoryEntry[]>;
  frameworks: readonly string[];
  readOnly: boolean;
  /** Links to the list's other pages, when it has more than one. */
  pagination?: ReactNode;
}) {
  return (
    <section aria-labelledby="site-status-heading" className="mt-8">
      <h2 id="site-status-heading" className="mb-3 text-lg font-semibold">
        Review status
      </h2>
      {sites.length === 0 ? (
        <Card>
          <p className="p-10 text-center text-sm text-zinc-600 dark:text-zinc-400">
            No sites yet.{readOnly ? '' : ' Add one: it is pending until an admin reviews it.'}
          </p>
        </Card>
      ) : (
        <ul className="space-y-3">
          {sites.map((site) => {
            const name = site.name ?? site.siteId;
            return (
              <li key={site.siteId}>
                <Card className="p-4" data-testid="site-status">
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div className="min-w-0">
                      <h3 className="font-medium break-words">{name}</h3>
                      <p className="text-sm break-all text-zinc-600 dark:text-zinc-400">
                        {site.url} · {site.framework}
                      </p>
                    </div>
                    <div className="flex flex-wrap items-center gap-1">
                      <SiteStatusBadge status={site.status} />
                      {!readOnly && site.status === 'pending' && (
                        <SiteDialog
                          frameworks={frameworks}
                          site={{ siteId: site.siteId, name, url: site.url ?? '', framework: site.framework ?? '' }}
                        />
                      )}
                      {!readOnly && !site.hasRevenue && <DeleteSiteButton siteId={site.siteId} name={name} />}
                    </div>
                  </div>
                  {site.statusReason && (
                    <p
                      role="note"
                      className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200"
                    >
                      <span className="font-medium">Sent back by an admin:</span> {site.statusReason}
                    </p>
                  )}
                  <details className="mt-3">
                    <summary className="cursor-pointer text-sm font-medium text-zinc-700 dark:text-zinc-300">
                      History<span className="sr-only"> of {name}</span>
                    </summary>
                    <div className="mt-2">
                      <SiteHistory entries={histories.get(site.siteId) ?? []} />
                    </div>
                  </details>
                </Card>
              </li>
            );
          })}
        </ul>
      )}
      {pagination}
    </section>
  );
}

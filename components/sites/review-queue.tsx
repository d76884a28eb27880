import type { ReviewedSite, SiteHistoryEntry } from '@/lib/sites';
import { Card } from '@/components/ui/card';
import { formatDay } from '@/lib/shared/format';
import { DeleteSiteButton } from './delete-site-button';
import { ReviewActions } from './review-actions';
import { SiteDialog } from './site-dialog';
import { SiteHistory } from './site-history';
import { SiteStatusBadge } from './status-badge';

export interface QueueSite extends ReviewedSite {
  /** The moves the services allow from its status, besides sending back. */
  moves: readonly string[];
  history: SiteHistoryEntry[];
}

/** The admin's review queue: each site with its publisher, status and reason, actions and history. */
export function ReviewQueue({ sites, frameworks }: { sites: QueueSite[]; frameworks: readonly string[] }) {
  return (
    <ul className="space-y-3" aria-label="Sites to review">
      {sites.map((site) => {
        const name = site.name ?? site.siteId;
        return (
          <li key={site.siteId}>
            <Card className="p-4" data-testid="review-site">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <h2 className="font-medium break-words">{name}</h2>
                  <p className="text-sm break-all text-zinc-600 dark:text-zinc-400">
                    {site.url && (
                      <a
                        href={site.url}
                        className="underline underline-offset-2"
                        rel="noopener noreferrer nofollow"
                        target="_blank"
                      >
                        {site.url}
                      </a>
                    )}{' '}
                    · {site.framework}
                  </p>
                  <p className="text-sm text-zinc-600 dark:text-zinc-400">
                    {site.publisherName} ({site.publisherEmail}) · added {formatDay(site.createdAt.slice(0, 10))}
                  </p>
                </div>
                <SiteStatusBadge status={site.status} />
              </div>
              {site.statusReason && (
                <p className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
                  <span className="font-medium">Sent back:</span> {site.statusReason}
                </p>
              )}
              <div className="mt-3 flex flex-wrap items-center justify-end gap-1">
                <ReviewActions siteId={site.siteId} name={name} status={site.status ?? 'pending'} moves={site.moves} />
                <SiteDialog
                  frameworks={frameworks}
                  site={{ siteId: site.siteId, name, url: site.url ?? '', framework: site.framework ?? '' }}
                />
                {!site.hasRevenue && <DeleteSiteButton siteId={site.siteId} name={name} />}
              </div>
              <details className="mt-2">
                <summary className="cursor-pointer text-sm font-medium text-zinc-700 dark:text-zinc-300">
                  History<span className="sr-only"> of {name}</span>
                </summary>
                <div className="mt-2">
                  <SiteHistory entries={site.history} />
                </div>
              </details>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}

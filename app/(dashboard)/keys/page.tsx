import type { Metadata } from 'next';
import { PageHeader } from '@/components/layout/page-header';
import { ViewerFallback } from '@/components/layout/viewer-fallback';
import { CreateKeyDialog } from '@/components/keys/create-key-dialog';
import { KeysTable } from '@/components/keys/keys-table';
import { KeyActions } from '@/components/keys/key-actions';
import { Card } from '@/components/ui/card';
import { requirePerson } from '@/lib/dashboard/session';
import type { SearchParams } from '@/lib/dashboard/url';
import { viewerOf } from '@/lib/dashboard/viewer';
import { todayUtc } from '@/lib/query';
import { keyAuthors, listApiKeys } from '@/lib/keys';
import { can, isOperator } from '@/lib/access';
import { listSites } from '@/lib/sites';
import { listPublishers } from '@/lib/accounts';

export const metadata: Metadata = { title: 'API keys · Publisher Portal' };

/**
 * The account's keys; for an operator viewing a publisher (`?as=`), that publisher's keys without any action; for an
 * operator whose role grants it, keys made for a publisher as well.
 */
export default async function KeysPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  // An operator's own page makes keys for publishers: it needs no publisher chosen.
  const viewer = await viewerOf(await requirePerson(), params, { ownIsEnough: true });
  if (viewer.kind !== 'ready') return <ViewerFallback viewer={viewer} title="API keys" path="/keys" params={params} />;
  const { principal, viewingAs } = viewer;
  if (!can(principal, 'manageKeys')) {
    return (
      <>
        <PageHeader title="API keys" />
        <Card className="p-6 text-sm text-zinc-700 dark:text-zinc-300">
          The account’s Owners and Admins create and revoke its API keys; ask one of them for a key.
        </Card>
      </>
    );
  }
  const [keys, authors, sites, publishers] = await Promise.all([
    listApiKeys(principal),
    keyAuthors(principal),
    listSites(principal),
    isOperator(principal) ? listPublishers(principal) : Promise.resolve(null),
  ]);
  const siteName = new Map(sites.map((s) => [s.siteId, s.name ?? s.siteId]));
  // Revoked keys apart and folded away: they only matter when tracing what stopped working.
  const usable = keys.filter((key) => !key.revokedAt);
  const revoked = keys.filter((key) => key.revokedAt);
  const today = todayUtc();
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          viewingAs
            ? `${viewingAs.name}’s keys, read-only: only the publisher can create, rotate or revoke them.`
            : 'Keys let scripts and BI tools read your reports over the HTTP API. Each key is shown once, when you create it.'
        }
      >
        <div className="flex flex-wrap gap-2">
          {publishers && (
            <CreateKeyDialog
              sites={[]}
              publishers={publishers.map((p) => ({ id: p.id, name: `${p.name} (${p.email})` }))}
              today={today}
            />
          )}
          {!viewingAs && (
            <CreateKeyDialog sites={sites.map((s) => ({ id: s.siteId, name: s.name ?? s.siteId }))} today={today} />
          )}
        </div>
      </PageHeader>
      <KeyActions>
        {/* Focusable, so that a keyboard can scroll the table sideways on a narrow screen. */}
        <Card className="relative md:overflow-x-auto" tabIndex={0} role="region" aria-label="API keys of the account">
          {usable.length === 0 ? (
            <p className="p-10 text-center text-sm text-zinc-600 dark:text-zinc-400">
              {revoked.length > 0
                ? 'No active API keys.'
                : viewingAs
                  ? 'No API keys.'
                  : 'No API keys yet. Create one to use the API.'}
            </p>
          ) : (
            <KeysTable
              keys={usable}
              siteName={siteName}
              authors={authors}
              caption="API keys of the account"
              readOnly={!!viewingAs}
            />
          )}
        </Card>
        {revoked.length > 0 && (
          <details className="group mt-6">
            <summary className="cursor-pointer text-sm font-medium text-zinc-700 dark:text-zinc-300">
              Revoked keys ({revoked.length})
            </summary>
            <Card className="relative mt-3 md:overflow-x-auto" tabIndex={0} role="region" aria-label="Revoked API keys">
              <KeysTable
                keys={revoked}
                siteName={siteName}
                authors={authors}
                caption="Revoked API keys"
                readOnly={!!viewingAs}
              />
            </Card>
          </details>
        )}
      </KeyActions>
    </>
  );
}

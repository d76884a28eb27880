import type { Metadata } from 'next';
import { ViewerFallback } from '@/components/layout/viewer-fallback';
import { Card } from '@/components/ui/card';
import { AddWebhookDialog } from '@/components/webhooks/add-webhook-dialog';
import { WebhooksPanel } from '@/components/webhooks/webhooks-panel';
import { can, isOperator } from '@/lib/access';
import { requirePerson } from '@/lib/dashboard/session';
import type { SearchParams } from '@/lib/dashboard/url';
import { viewerOf } from '@/lib/dashboard/viewer';
import { loadWebhooks } from '@/lib/dashboard/webhooks';

export const metadata: Metadata = { title: 'Webhooks · Publisher Portal' };

/** Settings → Webhooks: the account's endpoints, for its Owners and Admins (an operator viewing: read-only). */
export default async function SettingsWebhooksPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const viewer = await viewerOf(await requirePerson(), params);
  if (viewer.kind !== 'ready')
    return <ViewerFallback viewer={viewer} title="Webhooks" path="/settings/webhooks" params={params} />;
  const { principal, viewingAs } = viewer;
  if (isOperator(principal) || !can(principal, 'manageWebhooks')) {
    return (
      <Card className="p-6 text-sm text-zinc-700 dark:text-zinc-300">
        The account’s Owners and Admins add and remove its webhooks.
      </Card>
    );
  }
  const webhooks = await loadWebhooks(principal);
  return (
    <>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold">Webhooks</h2>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            Alerts and data updates POSTed to your systems as they happen, signed per the Standard Webhooks
            specification, retried for about a day.
          </p>
        </div>
        {!viewingAs && <AddWebhookDialog />}
      </div>
      <WebhooksPanel webhooks={webhooks} readOnly={!!viewingAs} />
    </>
  );
}

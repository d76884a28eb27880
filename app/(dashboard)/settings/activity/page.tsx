import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ActivityPage } from '@/components/activity/activity-page';
import { ViewerFallback } from '@/components/layout/viewer-fallback';
import { Card } from '@/components/ui/card';
import { can, isOperator } from '@/lib/access';
import { requirePerson } from '@/lib/dashboard/session';
import { viewerOf } from '@/lib/dashboard/viewer';
import type { SearchParams } from '@/lib/dashboard/url';

export const metadata: Metadata = { title: 'Activity · Publisher Portal' };

/**
 * Settings → Activity: the log of the account the URL names, for its Owners and Admins. An operator's log is every
 * account's, on its own page.
 */
export default async function SettingsActivityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const viewer = await viewerOf(await requirePerson(), params, { ownIsEnough: true });
  if (viewer.kind !== 'ready')
    return <ViewerFallback viewer={viewer} title="Activity" path="/settings/activity" params={params} />;
  const { principal } = viewer;
  if (isOperator(principal)) redirect('/admin/activity');
  if (!can(principal, 'readActivity')) {
    return (
      <Card className="p-6 text-sm text-zinc-700 dark:text-zinc-300">
        The account’s activity is shown to its Owners and Admins.
      </Card>
    );
  }
  return <ActivityPage principal={principal} params={params} embedded />;
}

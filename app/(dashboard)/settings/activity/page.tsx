import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ActivityPage } from '@/components/activity/activity-page';
import { requireUser } from '@/lib/dashboard/session';
import type { SearchParams } from '@/lib/dashboard/url';

export const metadata: Metadata = { title: 'Activity · Publisher Portal' };

/** Settings → Activity: the account's own log. An admin's log is every account's, on its own page. */
export default async function SettingsActivityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { principal } = await requireUser();
  if (principal.role === 'admin') redirect('/admin/activity');
  return <ActivityPage principal={principal} params={await searchParams} embedded />;
}

import type { Metadata } from 'next';
import { ActivityPage } from '@/components/activity/activity-page';
import { operatorPrincipal } from '@/lib/dashboard/operator-pages';
import type { SearchParams } from '@/lib/dashboard/url';

export const metadata: Metadata = { title: 'Activity · Admin · Publisher Portal' };

/** Every account's activity, for admins; anyone else finds no such page. */
export default async function AdminActivityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return <ActivityPage principal={await operatorPrincipal()} params={await searchParams} />;
}

import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ActivityPage } from '@/components/activity/activity-page';
import { isOperator } from '@/lib/access';
import { requirePerson } from '@/lib/dashboard/session';
import type { SearchParams } from '@/lib/dashboard/url';

export const metadata: Metadata = { title: 'Activity · Admin · Publisher Portal' };

/** Every account's activity, for admins; anyone else finds no such page. */
export default async function AdminActivityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { principal } = await requirePerson();
  if (!isOperator(principal)) notFound();
  return <ActivityPage principal={principal} params={await searchParams} />;
}

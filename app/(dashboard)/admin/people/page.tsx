import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/layout/page-header';
import { PeopleTable } from '@/components/people/people-table';
import { Card } from '@/components/ui/card';
import { isOperator } from '@/lib/access';
import { listPeople } from '@/lib/accounts';
import { requirePerson } from '@/lib/dashboard/session';
import { paramOf, type SearchParams } from '@/lib/dashboard/url';

export const metadata: Metadata = { title: 'People · Publisher Portal' };

/** Admins: everyone who signs in, their accounts and roles, and a reset for a lost second factor. */
export default async function PeoplePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { principal } = await requirePerson();
  // Not "forbidden": to anyone whose role does not grant it, this page does not exist.
  if (!isOperator(principal)) notFound();
  const params = await searchParams;
  const search = paramOf(params, 'search') ?? '';
  const page = Math.max(1, Number.parseInt(paramOf(params, 'page') ?? '1', 10) || 1);
  const { people, total } = await listPeople(principal, { search, page });
  return (
    <>
      <PageHeader
        title="People"
        description="Everyone who signs in, the accounts they belong to and their role there."
      />
      <form className="mb-4 flex gap-2" role="search">
        <label htmlFor="people-search" className="sr-only">
          Search people
        </label>
        <input
          id="people-search"
          name="search"
          defaultValue={search}
          placeholder="Name or e-mail"
          className="w-full max-w-sm rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
        <button
          type="submit"
          className="rounded-md bg-zinc-900 px-3 py-2 text-sm text-white dark:bg-zinc-100 dark:text-zinc-900"
        >
          Search
        </button>
      </form>
      <Card className="relative md:overflow-x-auto" tabIndex={0} role="region" aria-label="People">
        {people.length === 0 ? (
          <p className="p-10 text-center text-sm text-zinc-600 dark:text-zinc-400">Nobody matches.</p>
        ) : (
          <PeopleTable people={people.map((p) => ({ ...p, lastSignInAt: p.lastSignInAt?.toISOString() ?? null }))} />
        )}
      </Card>
      <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">
        {total} {total === 1 ? 'person' : 'people'}
      </p>
    </>
  );
}

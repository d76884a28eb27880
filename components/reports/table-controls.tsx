'use client';

import { Search } from 'lucide-react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useId, useTransition } from 'react';
import { inputClass } from '@/components/ui/field';
import { withChanges } from '@/lib/dashboard/url';
import { FilterBuilder } from './filter-builder';

/**
 * Search and Filter of the by-country grammar, written into the URL (the API's own `Search` and `Filter`):
 * search on Enter, filters as chips or as an expression. Either starts again on the first page.
 */
export function TableControls({ search, filter }: { search: string; filter: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();
  const id = useId();
  const navigate = (changes: Record<string, string | null>) => {
    const params = withChanges(searchParams.toString(), { ...changes, page: null });
    startTransition(() => router.push(`${pathname}?${params}`, { scroll: false }));
  };
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-3" aria-busy={pending}>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          navigate({ Search: String(new FormData(e.currentTarget).get('Search') ?? '').trim() || null });
        }}
        className="space-y-1"
      >
        <label htmlFor={`${id}-search`} className="block text-xs font-medium text-zinc-700 dark:text-zinc-300">
          Search countries
        </label>
        <div className="relative w-56 max-w-full">
          <Search aria-hidden className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-zinc-500" />
          <input
            id={`${id}-search`}
            name="Search"
            type="search"
            defaultValue={search}
            placeholder="Name or code"
            className={`${inputClass} w-full pl-8`}
          />
        </div>
      </form>
      <FilterBuilder filter={filter} onChange={(Filter) => navigate({ Filter })} />
    </div>
  );
}

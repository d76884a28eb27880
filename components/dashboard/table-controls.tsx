'use client';

import { Search } from 'lucide-react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useId, useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/field';
import { withChanges } from '@/lib/dashboard/url';

/** Search and Filter of the by-country grammar, submitted into the URL (Enter or "Apply"). */
export function TableControls({ search, filter }: { search: string; filter: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [pending, startTransition] = useTransition();
  const id = useId();
  const apply = (form: FormData) => {
    const value = (name: string) => String(form.get(name) ?? '').trim() || null;
    const params = withChanges(searchParams.toString(), {
      Search: value('Search'),
      Filter: value('Filter'),
      page: null,
    });
    startTransition(() => router.push(`${pathname}?${params}`, { scroll: false }));
  };
  return (
    <form action={apply} className="flex flex-wrap items-end gap-3" aria-busy={pending}>
      <div className="space-y-1">
        <label htmlFor={`${id}-search`} className="block text-xs font-medium text-zinc-700 dark:text-zinc-300">
          Search countries
        </label>
        <div className="relative">
          <Search aria-hidden className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-zinc-500" />
          <input
            id={`${id}-search`}
            name="Search"
            type="search"
            defaultValue={search}
            placeholder="Name or code"
            className={`${inputClass} w-56 pl-8`}
          />
        </div>
      </div>
      <div className="space-y-1">
        <label htmlFor={`${id}-filter`} className="block text-xs font-medium text-zinc-700 dark:text-zinc-300">
          Filter
        </label>
        <input
          id={`${id}-filter`}
          name="Filter"
          defaultValue={filter}
          placeholder="e.g. cpm>2;fillRate>=0.8"
          aria-describedby={`${id}-filter-hint`}
          className={`${inputClass} w-64 font-mono`}
        />
        <p id={`${id}-filter-hint`} className="sr-only">
          Same syntax as the API: field, operator and value; semicolon for and, comma for or.
        </p>
      </div>
      <Button type="submit" variant="secondary" disabled={pending}>
        Apply
      </Button>
    </form>
  );
}

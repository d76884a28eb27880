'use client';

import { Eye } from 'lucide-react';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useId } from 'react';
import { inputClass } from '@/components/ui/field';
import { paramOf, VIEW_AS, viewHref } from '@/lib/dashboard/url';

export interface PublisherOption {
  id: string;
  name: string;
  email: string;
}

/**
 * For admins: a strip above every page while they look at a publisher's dashboard (`?as=`), saying whose it
 * is and that it is read-only, with a switch to another publisher and a way out. Switching drops the sites
 * filter (those were the other publisher's sites) and keeps the range.
 */
export function ViewingAs({ publishers }: { publishers: PublisherOption[] }) {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const id = useId();
  const viewed = publishers.find((p) => p.id === paramOf(searchParams, VIEW_AS)?.toLowerCase());
  if (!viewed) return null;
  return (
    <section
      aria-label="Viewing as"
      className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950 md:px-8 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-100"
    >
      <p className="flex min-w-0 items-center gap-2">
        <Eye aria-hidden className="size-4 shrink-0" />
        <span className="min-w-0">
          Viewing as <strong data-testid="viewing-as">{viewed.name}</strong>
          <span className="hidden sm:inline"> ({viewed.email})</span> · read-only
        </span>
      </p>
      <div className="ml-auto flex items-center gap-3">
        <label htmlFor={id} className="sr-only">
          Switch publisher
        </label>
        <select
          id={id}
          value={viewed.id}
          onChange={(event) =>
            router.push(viewHref(pathname, searchParams, { as: event.target.value, sites: null }), { scroll: false })
          }
          className={`${inputClass} h-8 w-auto py-0`}
        >
          {publishers.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <Link
          href={viewHref(pathname, searchParams, { as: null, sites: null })}
          className="font-medium whitespace-nowrap underline underline-offset-2"
        >
          Stop viewing
        </Link>
      </div>
    </section>
  );
}

'use client';

import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { clearedViewHref } from '@/lib/dashboard/url';
import { cn } from '@/components/ui/cn';

const TABS = [
  { href: '/settings/security', label: 'Security' },
  { href: '/settings/members', label: 'Members' },
  { href: '/settings/activity', label: 'Activity' },
];

/** The Settings pages' tabs: links that keep which account it is (`?as=`), the current one marked for screen readers. */
export function SettingsTabs() {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  return (
    <nav aria-label="Settings" className="mb-6 flex gap-1 border-b border-zinc-200 dark:border-zinc-800">
      {TABS.map(({ href, label }) => {
        const active = pathname.startsWith(href);
        return (
          <Link
            key={href}
            href={clearedViewHref(href, searchParams)}
            aria-current={active ? 'page' : undefined}
            className={cn(
              '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
              active
                ? 'border-accent-600 text-accent-700 dark:border-accent-400 dark:text-accent-300'
                : 'border-transparent text-zinc-700 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-zinc-100',
            )}
          >
            {label}
          </Link>
        );
      })}
    </nav>
  );
}

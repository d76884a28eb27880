import Link from 'next/link';
import { cn } from './cn';

export interface TabLink {
  href: string;
  label: string;
  current: boolean;
}

/** Tabs that are links (each view has its URL), the current one marked for screen readers. */
export function TabLinks({ label, tabs }: { label: string; tabs: TabLink[] }) {
  return (
    <nav aria-label={label} className="mb-6 flex gap-1 border-b border-zinc-200 dark:border-zinc-800">
      {tabs.map(({ href, label, current }) => (
        <Link
          key={href}
          href={href}
          aria-current={current ? 'page' : undefined}
          className={cn(
            '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
            current
              ? 'border-accent-600 text-accent-700 dark:border-accent-400 dark:text-accent-300'
              : 'border-transparent text-zinc-700 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-zinc-100',
          )}
        >
          {label}
        </Link>
      ))}
    </nav>
  );
}

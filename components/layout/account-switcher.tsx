'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { ROLE_LABELS } from '@/lib/access/browser';
import { otherAccountHref, paramOf, VIEW_AS } from '@/lib/dashboard/url';
import type { AccountChoice } from './nav';

/**
 * Which account the dashboard shows, for someone who belongs to several: the choice goes into the URL
 * (`?as=`), so that every tab says which account it is and links and reloads keep it. The page stays, its
 * filters go (the sites differ from account to account).
 */
export function AccountSwitcher({ accounts }: { accounts: AccountChoice[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  if (accounts.length < 2) return null;
  const named = paramOf(searchParams, VIEW_AS)?.toLowerCase();
  const current = accounts.find((a) => a.id === named) ?? accounts[0];
  return (
    <label className="flex min-w-0 items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
      <span className="hidden sm:inline">Account</span>
      <select
        value={current.id}
        onChange={(event) => router.push(otherAccountHref(pathname, searchParams, event.target.value))}
        className="max-w-48 truncate rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      >
        {accounts.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name} · {ROLE_LABELS[a.role]}
          </option>
        ))}
      </select>
    </label>
  );
}

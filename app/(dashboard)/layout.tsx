import { LogOut } from 'lucide-react';
import type { ReactNode } from 'react';
import { signOutAction, signOutEverywhereAction } from '@/lib/dashboard/actions/sign-in';
import { AccountSwitcher } from '@/components/layout/account-switcher';
import { Nav } from '@/components/layout/nav';
import { ViewingAs } from '@/components/layout/viewing-as';
import { Button } from '@/components/ui/button';
import { isOperator, OPERATOR_POWERS } from '@/lib/access';
import { requirePerson } from '@/lib/dashboard/session';
import { publishersFor } from '@/lib/dashboard/viewer';

/** The signed-in shell: sidebar navigation (a top bar on narrow screens) and the account in the header. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requirePerson(undefined, { duringTwoFactorSetup: true });
  // Operators look at publishers' dashboards (?as=): the strip that says whose, with a switch.
  const publishers = isOperator(user.principal) ? await publishersFor(user.principal) : null;
  // The operator pages the member's role grants (lib/access/roles.ts); none for a publisher's.
  const powers = OPERATOR_POWERS.filter((power) => isOperator(user.principal, power));
  const accounts = user.memberships.map((m) => ({ id: m.accountId, name: m.accountName, role: m.role }));
  return (
    <div className="min-h-dvh md:grid md:grid-cols-[14rem_1fr]">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-zinc-900"
      >
        Skip to content
      </a>
      <aside className="border-b border-zinc-200 bg-white px-3 py-3 md:min-h-dvh md:border-r md:border-b-0 md:py-5 dark:border-zinc-800 dark:bg-zinc-900">
        <p className="mb-3 px-3 text-sm font-semibold text-accent-700 md:mb-6 dark:text-accent-300">Publisher Portal</p>
        {/* Not in a Suspense boundary: it would stream in after the first paint and push the page down. */}
        <Nav powers={powers} accounts={accounts} />
      </aside>
      <div className="min-w-0">
        <header className="flex items-center justify-end gap-3 border-b border-zinc-200 px-4 py-3 md:px-8 dark:border-zinc-800">
          <AccountSwitcher accounts={accounts} />
          <span className="truncate text-sm text-zinc-700 dark:text-zinc-300">
            <span className="font-medium text-zinc-900 dark:text-zinc-100">{user.name}</span>
            <span className="hidden sm:inline"> · {user.email}</span>
          </span>
          <form action={signOutEverywhereAction}>
            <Button type="submit" variant="ghost" title="End every session of this account, on every device">
              Sign out everywhere
            </Button>
          </form>
          <form action={signOutAction}>
            <Button type="submit" variant="ghost">
              <LogOut aria-hidden className="size-4" />
              Sign out
            </Button>
          </form>
        </header>
        {publishers && <ViewingAs publishers={publishers} />}
        <main id="main" className="px-4 py-6 md:px-8 md:py-8">
          {children}
        </main>
      </div>
    </div>
  );
}

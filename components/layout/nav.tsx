'use client';

import {
  BarChart3,
  Bell,
  Building2,
  BookOpen,
  ClipboardCheck,
  Globe2,
  KeyRound,
  Landmark,
  LayoutDashboard,
  LoaderCircle,
  ScrollText,
  Settings,
  Users,
  Wallet,
} from 'lucide-react';
import Link, { useLinkStatus } from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { cn } from '@/components/ui/cn';
import { type Ability, grants, type MemberRole, type OperatorPower } from '@/lib/access/browser';
import { clearedViewHref, paramOf, VIEW_AS, viewHref } from '@/lib/dashboard/url';

/** The pages; `needs`: what a member's role must grant for the page to be theirs (lib/access/roles.ts). */
const ITEMS: { href: string; label: string; icon: typeof Globe2; keepsFilters: boolean; needs?: Ability }[] = [
  { href: '/', label: 'Overview', icon: LayoutDashboard, keepsFilters: true },
  { href: '/countries', label: 'Countries', icon: Globe2, keepsFilters: true },
  { href: '/sites', label: 'Sites', icon: BarChart3, keepsFilters: true },
  { href: '/alerts', label: 'Alerts', icon: Bell, keepsFilters: false },
  { href: '/payments', label: 'Payments', icon: Wallet, keepsFilters: false, needs: 'readStatements' },
  { href: '/keys', label: 'API keys', icon: KeyRound, keepsFilters: false, needs: 'manageKeys' },
  { href: '/docs', label: 'API docs', icon: BookOpen, keepsFilters: false },
  { href: '/settings', label: 'Settings', icon: Settings, keepsFilters: false },
];
/** The operator's pages; `power`: the platform power a member of the operator's account needs for each. */
const OPERATOR_ITEMS: {
  href: string;
  label: string;
  icon: typeof Globe2;
  keepsFilters: false;
  power: OperatorPower;
}[] = [
  { href: '/admin/publishers', label: 'Publishers', icon: Building2, keepsFilters: false, power: 'operate' },
  { href: '/admin/people', label: 'People', icon: Users, keepsFilters: false, power: 'operate' },
  { href: '/admin/sites', label: 'Site review', icon: ClipboardCheck, keepsFilters: false, power: 'operate' },
  { href: '/admin/payouts', label: 'Payouts', icon: Landmark, keepsFilters: false, power: 'pay' },
  { href: '/admin/activity', label: 'Activity', icon: ScrollText, keepsFilters: false, power: 'operate' },
];

/**
 * While the page a link leads to is loading (pages render on the server with their data), the link shows a
 * spinner: an immediate answer to the click instead of a full-page skeleton flashing on every load.
 */
function PendingSpinner() {
  const { pending } = useLinkStatus();
  return (
    <LoaderCircle
      aria-hidden
      className={cn(
        'ml-auto size-4 shrink-0 animate-spin motion-reduce:animate-none',
        !pending && 'hidden md:invisible md:block',
      )}
    />
  );
}

/** An account the signed-in person belongs to, and their role there. */
export interface AccountChoice {
  id: string;
  name: string;
  role: MemberRole;
}

/** The signed-in person's role in the account the URL names (`?as=`), or in their first; none when viewing as admin. */
function useRole(accounts: AccountChoice[]): MemberRole | null {
  const named = paramOf(useSearchParams(), VIEW_AS)?.toLowerCase();
  return (named ? accounts.find((a) => a.id === named) : accounts[0])?.role ?? null;
}

/**
 * The main navigation; the report pages share the filter bar, so links between them keep it, and every link
 * keeps whose dashboard it is. A page the member's role does not grant is left out; of the operator's pages,
 * those of the platform powers the signed-in person holds (`powers`, none for a publisher's member).
 */
export function Nav({ powers = [], accounts }: { powers?: readonly OperatorPower[]; accounts: AccountChoice[] }) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const role = useRole(accounts);
  const shown = [
    ...ITEMS.filter(({ needs }) => !needs || !role || grants(role, needs)),
    ...OPERATOR_ITEMS.filter(({ power }) => powers.includes(power)),
  ];
  return (
    <nav aria-label="Main" className="flex flex-wrap gap-1 md:flex-col md:flex-nowrap">
      {shown.map(({ href, label, icon: Icon, keepsFilters }) => {
        const active = href === '/' ? pathname === '/' : pathname.startsWith(href);
        return (
          <Link
            key={href}
            href={keepsFilters ? viewHref(href, searchParams) : clearedViewHref(href, searchParams)}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'flex shrink-0 items-center gap-2 rounded-md px-3 py-2 text-sm font-medium',
              active
                ? 'bg-accent-50 text-accent-700 dark:bg-accent-500/15 dark:text-accent-300'
                : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
            )}
          >
            <Icon aria-hidden className="size-4" />
            {label}
            <PendingSpinner />
          </Link>
        );
      })}
    </nav>
  );
}

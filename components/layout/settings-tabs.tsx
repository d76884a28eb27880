'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { TabLinks } from '@/components/ui/tab-links';
import { clearedViewHref } from '@/lib/dashboard/url';

const TABS = [
  { href: '/settings/security', label: 'Security' },
  { href: '/settings/members', label: 'Members' },
  { href: '/settings/activity', label: 'Activity' },
  { href: '/settings/webhooks', label: 'Webhooks' },
];

/** The Settings pages' tabs: links that keep which account it is (`?as=`). */
export function SettingsTabs() {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  return (
    <TabLinks
      label="Settings"
      tabs={TABS.map(({ href, label }) => ({
        href: clearedViewHref(href, searchParams),
        label,
        current: pathname.startsWith(href),
      }))}
    />
  );
}

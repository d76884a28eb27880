import type { ReactNode } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { SettingsTabs } from '@/components/layout/settings-tabs';

/** Settings: the signed-in person's security, the account's members, what happened on it, its webhooks. */
export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your sign-in, the account’s members, what happened on it, and where its events go."
      />
      <SettingsTabs />
      {children}
    </>
  );
}

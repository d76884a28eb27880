import type { ReactNode } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { SettingsTabs } from '@/components/layout/settings-tabs';

/** Settings of the signed-in account (never of a publisher an admin is viewing): Security and Activity. */
export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <PageHeader title="Settings" description="Your own account: its password and what happened on it." />
      <SettingsTabs />
      {children}
    </>
  );
}
